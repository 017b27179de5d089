package ui

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
)

// Apply implements cluster.Applier: recorded ("apply deployments/shop/web dry-run" or "apply … force"), then
// sent through c.writes when set (a PATCH the read-only transport refuses, dry run or not), else answered
// with the stored object under obj's top-level fields, stored unless it is a dry run.
func (c *fakeCluster) Apply(ctx context.Context, gvr schema.GroupVersionResource, ns string, obj *unstructured.Unstructured, opts cluster.ApplyOptions) (*unstructured.Unstructured, error) {
	key := objectKey(gvr, ns, obj.GetName())
	call := "apply " + key
	if opts.DryRun {
		call += " dry-run"
	}
	if opts.Force {
		call += " force"
	}
	c.record(call)
	if c.writes != nil {
		po := metav1.PatchOptions{FieldManager: "kscope"}
		if opts.DryRun {
			po.DryRun = []string{metav1.DryRunAll}
		}
		_, err := c.writes.Resource(gvr).Namespace(ns).Patch(ctx, obj.GetName(), types.ApplyPatchType, []byte(`{}`), po)
		return nil, asRefused(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := obj.DeepCopy()
	if old, ok := c.objects[key]; ok {
		out = old.DeepCopy()
		for k, v := range obj.DeepCopy().Object {
			if k != "metadata" {
				out.Object[k] = v
			}
		}
		out.SetLabels(obj.GetLabels())
	}
	out.SetResourceVersion(fmt.Sprint(len(c.calls) + 1000))
	if !opts.DryRun {
		c.objects[key] = out.DeepCopy()
	}
	return out, nil
}
