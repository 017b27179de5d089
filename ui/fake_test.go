package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"kscope/discovery"
	"kscope/kube/readonly"
	"kscope/watch"
)

// fakeCluster hands out the sources and objects a test prepared, and records deletes.
type fakeCluster struct {
	mu      sync.Mutex
	info    ClusterInfo
	catalog *discovery.StaticCatalog
	columns map[string][]watch.Column // by resource name
	rows    map[string][]*watch.Row   // by resource name, filtered by namespace on NewSource
	objects map[string]*unstructured.Unstructured
	sources []*watch.StaticSource
	deletes []string
	// writes, when set, is the client deletes are sent through (a real HTTP client, for read-only tests).
	writes dynamic.Interface
}

func (c *fakeCluster) Info() ClusterInfo { return c.info }
func (c *fakeCluster) Catalog() Catalog  { return c.catalog }
func (c *fakeCluster) Close()            {}

func (c *fakeCluster) NewSource(spec watch.Spec) (RowSource, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var rows []*watch.Row
	for _, r := range c.rows[spec.GVR.Resource] {
		if spec.Namespace == "" || r.Namespace == spec.Namespace {
			rows = append(rows, r)
		}
	}
	cols := c.columns[spec.GVR.Resource]
	if spec.AllNamespaces() {
		cols = append([]watch.Column{{Name: "NAMESPACE", Type: "string"}}, cols...)
		for i, r := range rows {
			cp := *r
			cp.Cells = append([]string{r.Namespace}, r.Cells...)
			rows[i] = &cp
		}
	}
	s := watch.NewStaticSource(spec, cols, rows...)
	c.sources = append(c.sources, s)
	return s, nil
}

func (c *fakeCluster) lastSource() *watch.StaticSource {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sources[len(c.sources)-1]
}

func objectKey(gvr schema.GroupVersionResource, ns, name string) string {
	return strings.Join([]string{gvr.Resource, ns, name}, "/")
}

func (c *fakeCluster) WatchObject(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) <-chan watch.ObjectEvent {
	ch := make(chan watch.ObjectEvent, 1)
	obj, err := c.Get(ctx, gvr, ns, name)
	ch <- watch.ObjectEvent{Object: obj, Err: err}
	go func() {
		<-ctx.Done()
		close(ch)
	}()
	return ch
}

func (c *fakeCluster) Get(_ context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if o, ok := c.objects[objectKey(gvr, ns, name)]; ok {
		return o.DeepCopy(), nil
	}
	return nil, fmt.Errorf("%s %q not found", gvr.Resource, name)
}

func (c *fakeCluster) Delete(ctx context.Context, gvr schema.GroupVersionResource, ns, name string, _ types.UID) error {
	c.mu.Lock()
	c.deletes = append(c.deletes, objectKey(gvr, ns, name))
	writes := c.writes
	c.mu.Unlock()
	if writes != nil {
		err := writes.Resource(gvr).Namespace(ns).Delete(ctx, name, metav1.DeleteOptions{})
		if refused := (*readonly.RefusedError)(nil); errors.As(err, &refused) {
			return refused // as kube.Cluster words it
		}
		return err
	}
	return nil
}

func (c *fakeCluster) deleted() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.deletes...)
}
