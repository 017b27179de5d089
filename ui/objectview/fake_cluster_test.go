package objectview

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// t0 is the fake clock's start (navtest.New's).
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

var (
	podsRes        = discovery.Resource{Version: "v1", Name: "pods", SingularName: "pod", Kind: "Pod", Namespaced: true}
	deploymentsRes = discovery.Resource{Group: "apps", Version: "v1", Name: "deployments", SingularName: "deployment",
		Kind: "Deployment", Namespaced: true}
	secretsRes = discovery.Resource{Version: "v1", Name: "secrets", SingularName: "secret", Kind: "Secret",
		Namespaced: true}
	deploymentsGVR = deploymentsRes.GVR()
)

// fakeCluster is what the views of one object read of a cluster: the object's watch (WatchObject: its
// state, then each put and delete) and its description (Describe, recorded). Anything else (a write among
// them) panics: the nil cluster.Interface it embeds. Safe for concurrent use.
type fakeCluster struct {
	cluster.Interface
	mu       sync.Mutex
	objects  map[string]*unstructured.Unstructured // by objectKey
	watchers map[string][]chan watch.ObjectEvent
	calls    []string
}

// newFakeCluster holds ui's fixture objects: the pod shop/web-7d9f-abcde, the deployment shop/web and the
// secret shop/creds.
func newFakeCluster() *fakeCluster {
	c := &fakeCluster{objects: map[string]*unstructured.Unstructured{}, watchers: map[string][]chan watch.ObjectEvent{}}
	c.objects[objectKey(podsRes.GVR(), "shop", "web-7d9f-abcde")] = podObject()
	c.objects[objectKey(deploymentsGVR, "shop", "web")] = deploymentObject()
	c.objects[objectKey(secretsRes.GVR(), "shop", "creds")] = secretObject()
	return c
}

func objectKey(gvr schema.GroupVersionResource, ns, name string) string {
	return strings.Join([]string{gvr.Resource, ns, name}, "/")
}

// WatchObject sends the object stored (or an error), then each change put or deleted, until ctx ends.
func (c *fakeCluster) WatchObject(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) <-chan watch.ObjectEvent {
	ch := make(chan watch.ObjectEvent, 16)
	key := objectKey(gvr, ns, name)
	c.mu.Lock()
	if o, ok := c.objects[key]; ok {
		ch <- watch.ObjectEvent{Object: o.DeepCopy()}
	} else {
		ch <- watch.ObjectEvent{Err: fmt.Errorf("%s %q not found", gvr.Resource, name)}
	}
	c.watchers[key] = append(c.watchers[key], ch)
	c.mu.Unlock()
	go func() {
		<-ctx.Done()
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, w := range c.watchers[key] {
			if w == ch {
				c.watchers[key] = append(c.watchers[key][:i], c.watchers[key][i+1:]...)
				break
			}
		}
		close(ch)
	}()
	return ch
}

// put stores obj (a change of the object by someone else) and tells its watchers.
func (c *fakeCluster) put(gvr schema.GroupVersionResource, obj *unstructured.Unstructured) {
	key := objectKey(gvr, obj.GetNamespace(), obj.GetName())
	c.mu.Lock()
	defer c.mu.Unlock()
	c.objects[key] = obj.DeepCopy()
	for _, w := range c.watchers[key] {
		w <- watch.ObjectEvent{Object: obj.DeepCopy()}
	}
}

// remove deletes the object (by someone else) and tells its watchers.
func (c *fakeCluster) remove(gvr schema.GroupVersionResource, ns, name string) {
	key := objectKey(gvr, ns, name)
	c.mu.Lock()
	defer c.mu.Unlock()
	o := c.objects[key]
	delete(c.objects, key)
	for _, w := range c.watchers[key] {
		w <- watch.ObjectEvent{Object: o, Deleted: true}
	}
}

// Describe is a short description of the object stored, as ui's fake writes it; each call is recorded.
func (c *fakeCluster) Describe(_ context.Context, res discovery.Resource, ns, name string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := objectKey(res.GVR(), ns, name)
	obj, ok := c.objects[key]
	if !ok {
		return "", fmt.Errorf("%s %q not found", res.Name, name)
	}
	c.calls = append(c.calls, "describe "+key)
	return fmt.Sprintf("Name:         %s\nNamespace:    %s\nLabels:       %v\nResourceVersion: %s\n",
		name, ns, obj.GetLabels(), obj.GetResourceVersion()), nil
}

// recorded is the calls made so far.
func (c *fakeCluster) recorded() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

// The fixture's objects, as ui's tests have them.

func deploymentObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "uid": "uid-web", "resourceVersion": "5",
			"labels":        map[string]any{"app": "web"},
			"managedFields": []any{map[string]any{"manager": "kubectl", "operation": "Update"}}},
		"spec":   map[string]any{"replicas": int64(2)},
		"status": map[string]any{"replicas": int64(2)},
	}}
}

// deploymentVersion is the fixture's deployment at resourceVersion rv with replicas and image.
func deploymentVersion(rv string, replicas int64, image string) *unstructured.Unstructured {
	o := deploymentObject()
	_ = unstructured.SetNestedField(o.Object, rv, "metadata", "resourceVersion")
	_ = unstructured.SetNestedField(o.Object, replicas, "spec", "replicas")
	_ = unstructured.SetNestedSlice(o.Object, []any{map[string]any{"name": "web", "image": image}},
		"spec", "template", "spec", "containers")
	return o
}

func podObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{
			"name": "web-7d9f-abcde", "namespace": "shop", "uid": "uid-web-7d9f-abcde",
			"labels":        map[string]any{"app": "web"},
			"managedFields": []any{map[string]any{"manager": "kube-controller-manager", "operation": "Update"}},
			"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet",
				"name": "web-7d9f", "uid": "uid-web-7d9f", "controller": true}},
		},
		"spec":   map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27"}}},
		"status": map[string]any{"phase": "Running"},
	}}
}

func secretObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "creds", "namespace": "shop"},
		"data":     map[string]any{"password": "aHVudGVyMg=="},
		"type":     "Opaque",
	}}
}
