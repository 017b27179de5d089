package ui

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// withCronJobs adds batch's cronjobs and jobs to the fixture cluster, with cronjob shop/nightly (not
// suspended, one container).
func withCronJobs(c *fakeCluster) {
	verbs := []string{"create", "delete", "get", "list", "patch", "update", "watch"}
	c.catalog.Add(
		discovery.Resource{Group: "batch", Version: "v1", Name: "cronjobs", SingularName: "cronjob", Kind: "CronJob",
			ShortNames: []string{"cj"}, Verbs: verbs, Namespaced: true},
		discovery.Resource{Group: "batch", Version: "v1", Name: "jobs", SingularName: "job", Kind: "Job", Verbs: verbs, Namespaced: true})
	c.columns["cronjobs"] = []watch.Column{{Name: "NAME", Type: "string", Format: "name"}, {Name: "SCHEDULE", Type: "string"},
		{Name: "SUSPEND", Type: "boolean"}, {Name: "AGE", Type: "date", Age: true}}
	c.rows["cronjobs"] = []*watch.Row{{Key: "shop/nightly", Namespace: "shop", Name: "nightly", UID: "uid-nightly",
		Created: t0.Add(-3600e9), Cells: []string{"nightly", "0 3 * * *", "False", "<age>"}}}
	c.objects[objectKey(cronJobsGVR, "shop", "nightly")] = &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "batch/v1", "kind": "CronJob",
		"metadata": map[string]any{"name": "nightly", "namespace": "shop", "uid": "uid-nightly", "resourceVersion": "7",
			"labels": map[string]any{"app": "nightly"}},
		"spec": map[string]any{"schedule": "0 3 * * *", "suspend": false, "jobTemplate": map[string]any{"spec": map[string]any{
			"template": map[string]any{"spec": map[string]any{
				"initContainers": []any{map[string]any{"name": "setup", "image": "busybox:1.36"}},
				"containers":     []any{map[string]any{"name": "report", "image": "report:2"}}}}}}},
	}}
}

// write records call, then writes through c.writes when set (the read-only transport refuses), else checks
// pre against the stored object at gvr/ns/name.
func (c *fakeCluster) write(call string, gvr schema.GroupVersionResource, ns, name string, pre cluster.Precondition) error {
	c.record(call)
	if c.writes != nil {
		_, err := c.writes.Resource(gvr).Namespace(ns).Patch(context.Background(), name, types.MergePatchType, []byte(`{}`), metav1.PatchOptions{})
		return asRefused(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.precondition(gvr, objectKey(gvr, ns, name), name, pre)
}

func (c *fakeCluster) Trigger(_ context.Context, ns, name string, uid types.UID) (string, error) {
	err := c.write("trigger "+objectKey(cronJobsGVR, ns, name), cronJobsGVR, ns, name, cluster.Precondition{UID: uid})
	return name + "-manual-abcde", err
}

func (c *fakeCluster) Suspend(_ context.Context, ns, name string, suspend bool, pre cluster.Precondition) error {
	return c.write(fmt.Sprintf("suspend %s %v", objectKey(cronJobsGVR, ns, name), suspend), cronJobsGVR, ns, name, pre)
}

func (c *fakeCluster) Kill(_ context.Context, ns, name string, uid types.UID) error {
	return c.write(fmt.Sprintf("kill %s %s", objectKey(podsGVR, ns, name), uid), podsGVR, ns, name, cluster.Precondition{UID: uid})
}

func (c *fakeCluster) SetImage(_ context.Context, gvr schema.GroupVersionResource, ns, name, container, image string, pre cluster.Precondition) error {
	return c.write(fmt.Sprintf("set-image %s %s %s", objectKey(gvr, ns, name), container, image), gvr, ns, name, pre)
}

// Images reads the stored object's containers (a pod's, a cronjob's job template's, else spec.template's).
func (c *fakeCluster) Images(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) ([]cluster.ContainerImage, cluster.Precondition, error) {
	obj, err := c.Get(ctx, gvr, ns, name)
	if err != nil {
		return nil, cluster.Precondition{}, err
	}
	path := []string{"spec", "template", "spec"}
	switch gvr {
	case podsGVR:
		path = []string{"spec"}
	case cronJobsGVR:
		path = []string{"spec", "jobTemplate", "spec", "template", "spec"}
	}
	var out []cluster.ContainerImage
	for _, list := range []string{"initContainers", "containers"} {
		cs, _, _ := unstructured.NestedSlice(obj.Object, append(path, list)...)
		for _, item := range cs {
			m := item.(map[string]any)
			out = append(out, cluster.ContainerImage{Name: m["name"].(string), Image: m["image"].(string), Init: list == "initContainers"})
		}
	}
	return out, cluster.Precondition{UID: obj.GetUID()}, nil
}

// Label records "label deployments/shop/web labels a=1,b-" (keys sorted; a removed key ends in -).
func (c *fakeCluster) Label(_ context.Context, gvr schema.GroupVersionResource, ns, name, field string, changes map[string]*string, pre cluster.Precondition) error {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(changes)) {
		if v := changes[k]; v != nil {
			parts = append(parts, k+"="+*v)
		} else {
			parts = append(parts, k+"-")
		}
	}
	return c.write(fmt.Sprintf("label %s %s %s", objectKey(gvr, ns, name), field, strings.Join(parts, ",")), gvr, ns, name, pre)
}
