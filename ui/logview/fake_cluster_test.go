package logview

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
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

// fakeCluster is what a logs view reads of a cluster: objects (Get), the rows of the pods a selector
// matches (NewSource: a watch.StaticSource) and the containers' logs (fake_logs_test.go). Anything else
// (a write among them) panics: the nil cluster.Interface it embeds. Safe for concurrent use.
type fakeCluster struct {
	cluster.Interface
	mu      sync.Mutex
	objects map[string]*unstructured.Unstructured // by objectKey
	sources []*watch.StaticSource
	logs    fakeLogs
}

// newFakeCluster holds the pods shop/web-7d9f-abcde, shop/web-7d9f-fghij (app=web) and shop/api-5c4b-zzzzz
// (app=api), each with one container "web", and the deployment shop/web selecting app=web.
func newFakeCluster() *fakeCluster {
	c := &fakeCluster{objects: map[string]*unstructured.Unstructured{}}
	for _, name := range []string{"web-7d9f-abcde", "web-7d9f-fghij", "api-5c4b-zzzzz"} {
		c.put(podsGVR, podObject(name))
	}
	c.put(deploymentsGVR, deploymentObject())
	return c
}

func objectKey(gvr schema.GroupVersionResource, ns, name string) string {
	return strings.Join([]string{gvr.Resource, ns, name}, "/")
}

// put stores obj (replacing the one of its name).
func (c *fakeCluster) put(gvr schema.GroupVersionResource, obj *unstructured.Unstructured) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.objects[objectKey(gvr, obj.GetNamespace(), obj.GetName())] = obj.DeepCopy()
}

// Get returns the object stored, or NotFound.
func (c *fakeCluster) Get(_ context.Context, gvr schema.GroupVersionResource, ns, name string) (
	*unstructured.Unstructured, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if o, ok := c.objects[objectKey(gvr, ns, name)]; ok {
		return o.DeepCopy(), nil
	}
	return nil, apierrors.NewNotFound(gvr.GroupResource(), name)
}

// NewSource lists the pods stored that spec's namespace and label selector match.
func (c *fakeCluster) NewSource(spec watch.Spec) (cluster.RowSource, error) {
	if spec.GVR != podsGVR {
		return nil, fmt.Errorf("the fake lists pods only, not %s", spec.GVR.Resource)
	}
	sel, err := labels.Parse(spec.LabelSelector)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var rows []*watch.Row
	for key, o := range c.objects {
		if strings.HasPrefix(key, "pods/") && (spec.Namespace == "" || o.GetNamespace() == spec.Namespace) &&
			sel.Matches(labels.Set(o.GetLabels())) {
			rows = append(rows, &watch.Row{Key: o.GetNamespace() + "/" + o.GetName(), Namespace: o.GetNamespace(),
				Name: o.GetName(), Labels: o.GetLabels(), Cells: []string{o.GetName()}})
		}
	}
	s := watch.NewStaticSource(spec, []watch.Column{{Name: "NAME", Type: "string"}}, rows...)
	c.sources = append(c.sources, s)
	return s, nil
}

// lastSource is the source NewSource returned last.
func (c *fakeCluster) lastSource() *watch.StaticSource {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sources[len(c.sources)-1]
}

// podObject is the running pod shop/NAME labelled app=<NAME's first part>, with one container "web".
func podObject(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name, "namespace": "shop", "uid": "uid-" + name,
			"labels": map[string]any{"app": strings.Split(name, "-")[0]}},
		"spec":   map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27"}}},
		"status": map[string]any{"phase": "Running"},
	}}
}

// deploymentObject is the deployment shop/web, selecting the pods labelled app=web.
func deploymentObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "uid": "uid-web", "labels": map[string]any{"app": "web"}},
		"spec": map[string]any{"replicas": int64(2),
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}},
	}}
}
