package kube

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/cluster"
)

// Apply implements cluster.Applier with the dynamic client's Apply: a PATCH of Content-Type
// application/apply-patch+yaml, field manager kscope, dryRun=All when opts.DryRun, force=true when
// opts.Force. Errors are worded by DescribeServerError and keep the API status (its conflict causes).
func (c *Cluster) Apply(ctx context.Context, gvr schema.GroupVersionResource, namespace string, obj *unstructured.Unstructured, opts cluster.ApplyOptions) (*unstructured.Unstructured, error) {
	o := metav1.ApplyOptions{FieldManager: fieldManager, Force: opts.Force}
	if opts.DryRun {
		o.DryRun = []string{metav1.DryRunAll}
	}
	out, err := c.dyn.Resource(gvr).Namespace(namespace).Apply(ctx, obj.GetName(), obj, o)
	if err != nil {
		return nil, DescribeServerError(c.cfg.Host, err)
	}
	return out, nil
}
