package ui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/discovery"
	"kscope/watch"
)

// fakeSource is an in-memory RowSource: tests put and delete rows and the UI reads them as from a watch.Source.
type fakeSource struct {
	mu      sync.Mutex
	spec    watch.Spec
	columns []watch.Column
	rows    map[string]*watch.Row
	state   watch.State
	changes watch.ChangeSet
	notify  chan struct{}
	started bool
	stopped bool
}

func newFakeSource(spec watch.Spec, columns []watch.Column, rows ...*watch.Row) *fakeSource {
	s := &fakeSource{spec: spec, columns: columns, rows: map[string]*watch.Row{}, notify: make(chan struct{}, 1),
		state: watch.State{Phase: watch.Synced}}
	for _, r := range rows {
		s.rows[r.Key] = r
	}
	return s
}

func (s *fakeSource) Spec() watch.Spec { return s.spec }
func (s *fakeSource) Start(context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = true
}
func (s *fakeSource) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
}
func (s *fakeSource) State() watch.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}
func (s *fakeSource) Columns() []watch.Column { return s.columns }
func (s *fakeSource) Notify() <-chan struct{} { return s.notify }
func (s *fakeSource) Changes() watch.ChangeSet {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.changes
	s.changes = watch.ChangeSet{}
	return c
}

func (s *fakeSource) Row(key string) (*watch.Row, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.rows[key]
	return r, ok
}

// Snapshot filters and sorts like watch.Source: natural order by key, or by one column's text (AGE by
// creation time).
func (s *fakeSource) Snapshot(q watch.Query) watch.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	var rows []*watch.Row
	for _, r := range s.rows {
		if q.Filter.Match(r) {
			rows = append(rows, r)
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if c := q.SortColumn; c >= 0 && c < len(s.columns) {
			var less, greater bool
			if s.columns[c].Age {
				less, greater = a.Created.After(b.Created), a.Created.Before(b.Created)
			} else {
				less, greater = a.Cells[c] < b.Cells[c], a.Cells[c] > b.Cells[c]
			}
			if less || greater {
				return less != q.Descending
			}
		}
		return a.Key < b.Key
	})
	return watch.Snapshot{Rows: rows, Total: len(s.rows)}
}

func (s *fakeSource) put(r *watch.Row) {
	s.mu.Lock()
	if _, ok := s.rows[r.Key]; ok {
		s.changes.Updated = append(s.changes.Updated, r.Key)
	} else {
		s.changes.Added = append(s.changes.Added, r.Key)
	}
	s.rows[r.Key] = r
	s.mu.Unlock()
	s.poke()
}

func (s *fakeSource) remove(key string) {
	s.mu.Lock()
	if r, ok := s.rows[key]; ok {
		delete(s.rows, key)
		s.changes.Deleted = append(s.changes.Deleted, r)
	}
	s.mu.Unlock()
	s.poke()
}

func (s *fakeSource) poke() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// fakeCatalog is a fixed list of resources with kubectl-like resolution.
type fakeCatalog struct {
	mu          sync.Mutex
	resources   []discovery.Resource
	unavailable []discovery.Unavailable
	subs        []func()
}

func (c *fakeCatalog) Resources() []discovery.Resource {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]discovery.Resource(nil), c.resources...)
}
func (c *fakeCatalog) Unavailable() []discovery.Unavailable { return c.unavailable }
func (c *fakeCatalog) Resolve(input string) (discovery.Resource, error) {
	for _, r := range c.Resources() {
		names := append([]string{r.Name, r.SingularName, r.FullName(), r.Name + "." + r.Version + "." + r.Group}, r.ShortNames...)
		for _, n := range names {
			if n == input {
				return r, nil
			}
		}
	}
	return discovery.Resource{}, fmt.Errorf("the server doesn't have a resource type %q", input)
}
func (c *fakeCatalog) Subscribe(fn func()) func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.subs = append(c.subs, fn)
	return func() {}
}

func (c *fakeCatalog) add(r discovery.Resource) {
	c.mu.Lock()
	c.resources = append(c.resources, r)
	subs := c.subs
	c.mu.Unlock()
	for _, fn := range subs {
		fn()
	}
}

// fakeCluster hands out the sources and objects a test prepared, and records deletes.
type fakeCluster struct {
	mu      sync.Mutex
	info    ClusterInfo
	catalog *fakeCatalog
	columns map[string][]watch.Column // by resource name
	rows    map[string][]*watch.Row   // by resource name, filtered by namespace on NewSource
	objects map[string]*unstructured.Unstructured
	sources []*fakeSource
	deletes []string
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
	s := newFakeSource(spec, cols, rows...)
	c.sources = append(c.sources, s)
	return s, nil
}

func (c *fakeCluster) lastSource() *fakeSource {
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

func (c *fakeCluster) Delete(_ context.Context, gvr schema.GroupVersionResource, ns, name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.deletes = append(c.deletes, objectKey(gvr, ns, name))
	return nil
}

func (c *fakeCluster) deleted() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.deletes...)
}
