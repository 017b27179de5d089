package treeview

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/tree"
)

// t0 is the time of navtest's fake clock.
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

var (
	podsGVR        = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	replicasetsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}
	widgetsGVR     = schema.GroupVersionResource{Group: "shop.example.com", Version: "v1", Resource: "clusterwidgets"}
)

// fakeCluster is the cluster a tree reads: the catalog of ui's test fixture, the full objects Get answers,
// and a fake metadata API (client-go's metadata fake) that real tree.Sources list and watch. The other
// methods of cluster.Interface are not implemented (a call panics). Safe for concurrent use.
type fakeCluster struct {
	cluster.Interface
	catalog *discovery.StaticCatalog

	mu      sync.Mutex
	objects map[string]*unstructured.Unstructured // by objectKey
	client  *metadatafake.FakeMetadataClient
	// forbidden lists the resources whose lists the server refuses (403).
	forbidden []string
	// sources are the tree sources handed out, in order; kinds and namespace what they were asked for.
	sources   []*tree.Source
	kinds     []tree.Kind
	namespace string
	// treeErr, when set, is what NewTreeSource answers.
	treeErr error
}

// fixtureCluster is ui's test fixture as a tree sees it: its kinds, and the full objects of the pod
// web-7d9f-abcde (running, without a Ready condition) and the deployment web.
func fixtureCluster() *fakeCluster {
	verbs := []string{"create", "delete", "get", "list", "patch", "update", "watch"}
	res := func(group, version, name, kind string, namespaced bool) discovery.Resource {
		return discovery.Resource{Group: group, Version: version, Name: name, SingularName: strings.ToLower(kind),
			Kind: kind, Verbs: verbs, Namespaced: namespaced}
	}
	c := &fakeCluster{catalog: discovery.NewStaticCatalog(
		res("", "v1", "configmaps", "ConfigMap", true),
		res("", "v1", "events", "Event", true),
		res("", "v1", "namespaces", "Namespace", false),
		res("", "v1", "pods", "Pod", true),
		res("", "v1", "secrets", "Secret", true),
		res("apps", "v1", "deployments", "Deployment", true),
		res("apps", "v1", "replicasets", "ReplicaSet", true),
		discovery.Resource{Group: "authentication.k8s.io", Version: "v1", Name: "tokenreviews", SingularName: "tokenreview",
			Kind: "TokenReview", Verbs: []string{"create"}},
		res("shop.example.com", "v1", "widgets", "Widget", true),
	), objects: map[string]*unstructured.Unstructured{}}
	c.objects[objectKey(podsGVR, "shop", "web-7d9f-abcde")] = podObject("web-7d9f-abcde", "Running")
	c.objects[objectKey(deploymentsGVR, "shop", "web")] = &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "uid": "uid-web", "resourceVersion": "5"},
		"spec":     map[string]any{"replicas": int64(2)},
		"status":   map[string]any{"replicas": int64(2)},
	}}
	return c
}

// podObject is a pod of the replica set web-7d9f in phase.
func podObject(name, phase string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{
			"name": name, "namespace": "shop", "uid": "uid-" + name,
			"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet",
				"name": "web-7d9f", "uid": "uid-web-7d9f", "controller": true}},
		},
		"spec":   map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27"}}},
		"status": map[string]any{"phase": phase},
	}}
}

func objectKey(gvr schema.GroupVersionResource, ns, name string) string {
	return strings.Join([]string{gvr.Resource, ns, name}, "/")
}

func (c *fakeCluster) Catalog() cluster.Catalog { return c.catalog }

// Get answers the objects the test gave, else an error (not a NotFound: the health says Unknown).
func (c *fakeCluster) Get(_ context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if o, ok := c.objects[objectKey(gvr, ns, name)]; ok {
		return o.DeepCopy(), nil
	}
	return nil, fmt.Errorf("%s %q not found", gvr.Resource, name)
}

// treeClient returns the fake metadata API, made on first use. Callers hold c.mu or own c alone.
func (c *fakeCluster) treeClient() *metadatafake.FakeMetadataClient {
	if c.client == nil {
		scheme := metadatafake.NewTestScheme()
		metav1.AddMetaToScheme(scheme)
		c.client = metadatafake.NewSimpleMetadataClient(scheme)
		c.client.PrependReactor("list", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
			c.mu.Lock()
			defer c.mu.Unlock()
			for _, r := range c.forbidden {
				if r == a.GetResource().Resource {
					return true, nil, apierrors.NewForbidden(a.GetResource().GroupResource(), "", nil)
				}
			}
			return false, nil, nil
		})
	}
	return c.client
}

func (c *fakeCluster) NewTreeSource(kinds []tree.Kind, namespace string) (cluster.TreeSource, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.treeErr != nil {
		return nil, c.treeErr
	}
	src := tree.NewSource(c.treeClient(), kinds, namespace, nil, nil)
	c.sources = append(c.sources, src)
	c.kinds, c.namespace = kinds, namespace
	return src, nil
}

// addMeta adds the metadata of an object of gvr (kind) to the fake API; owners are "Kind/name" of objects
// whose UID is "uid-name", the first one the controller.
func (c *fakeCluster) addMeta(gvr schema.GroupVersionResource, kind, ns, name string, owners ...string) {
	m := &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: gvr.GroupVersion().String(), Kind: kind},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + name), ResourceVersion: "1",
			CreationTimestamp: metav1.NewTime(t0.Add(-time.Hour))},
	}
	apiVersions := map[string]string{"Deployment": "apps/v1", "ReplicaSet": "apps/v1", "ClusterWidget": "shop.example.com/v1"}
	for i, o := range owners {
		k, n, _ := strings.Cut(o, "/")
		ctrl := i == 0
		m.OwnerReferences = append(m.OwnerReferences, metav1.OwnerReference{APIVersion: cmp.Or(apiVersions[k], "v1"), Kind: k, Name: n,
			UID: types.UID("uid-" + n), Controller: &ctrl})
	}
	c.mu.Lock()
	client := c.treeClient()
	c.mu.Unlock()
	if err := client.Tracker().Create(gvr, m, ns); err != nil {
		panic(err)
	}
}
