package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/kube/readonly"
	"kscope/tree"
	"kscope/watch"
)

// fakeCluster hands out the sources and objects a test prepared, and records deletes.
type fakeCluster struct {
	mu      sync.Mutex
	info    cluster.Info
	catalog *discovery.StaticCatalog
	columns map[string][]watch.Column // by resource name
	rows    map[string][]*watch.Row   // by resource name, filtered by namespace on NewSource
	objects map[string]*unstructured.Unstructured
	sources []*watch.StaticSource
	// firstState, when set, is the state new sources start in (else Synced).
	firstState *watch.State
	// pulsing makes new sources pulsingSources.
	pulsing bool
	deletes []string
	// calls records every write and describe, in order ("scale deployments/ns/web 3").
	calls []string
	// denied lists the access queries ("verb resource[/sub] ns") the server answers with not allowed.
	denied map[string]bool
	// owners, when set, is what NewTreeSource returns.
	owners cluster.TreeSource
	// replicas are the scale subresources, by objectKey.
	replicas map[string]int32
	// gone lists the objects deleted (by objectKey): writes to them answer NotFound.
	gone     map[string]bool
	watchers map[string][]chan watch.ObjectEvent
	// updateErr, when set, answers the next update (then is cleared).
	updateErr error
	// writes, when set, is the client deletes are sent through (a real HTTP client, for read-only tests).
	writes dynamic.Interface
	// drainPlan is what DrainPlan answers and Drain evicts, drainRefusal DrainPlan's error, drainFails the
	// evictions that fail (by namespace/name).
	drainPlan    cluster.DrainPlan
	drainRefusal error
	drainFails   map[string]error
	// metrics is what PodMetrics, NodeMetrics and WatchPodResources answer (fake_metrics_test.go).
	metrics fakeMetrics
	// streams is what the shell and port-forward tests prepare and record (fake_streams_test.go).
	streams fakeStreams
	// dynamic serves the object sources of custom columns (fake_objects_test.go).
	dynamic fakeObjects
}

func (c *fakeCluster) Info() cluster.Info       { return c.info }
func (c *fakeCluster) Catalog() cluster.Catalog { return c.catalog }
func (c *fakeCluster) Close()                   {}

// NewTreeSource serves no metadata (the tree screen, package ui/treeview, tested there over a fake metadata
// API, is a stub in ui's tests), but for the owners a test sets in c.owners.
func (c *fakeCluster) NewTreeSource([]tree.Kind, string) (cluster.TreeSource, error) {
	if c.owners != nil {
		return c.owners, nil
	}
	return nil, errors.New("the fake cluster serves no metadata API")
}

func (c *fakeCluster) NewSource(spec watch.Spec) (cluster.RowSource, error) {
	if len(spec.Columns) > 0 {
		return c.newObjectSource(spec)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var rows []*watch.Row
	sel, err := labels.Parse(spec.LabelSelector)
	if err != nil {
		return nil, err
	}
	for _, r := range c.rows[spec.GVR.Resource] {
		if (spec.Namespace == "" || r.Namespace == spec.Namespace) && sel.Matches(labels.Set(r.Labels)) {
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
	if c.firstState != nil {
		s.SetState(*c.firstState)
	}
	c.sources = append(c.sources, s)
	if c.pulsing {
		return &pulsingSource{StaticSource: s}, nil
	}
	return s, nil
}

// pulsingSource is a StaticSource whose event rate reads differently at every read, as a busy informer's does.
type pulsingSource struct {
	*watch.StaticSource
	reads atomic.Int64
}

func (s *pulsingSource) Pulse() watch.Pulse {
	return watch.Pulse{RecentEvents: int(s.reads.Add(1)), LastEvent: t0}
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
	ch := make(chan watch.ObjectEvent, 16)
	obj, err := c.Get(ctx, gvr, ns, name)
	ch <- watch.ObjectEvent{Object: obj, Err: err}
	key := objectKey(gvr, ns, name)
	c.mu.Lock()
	if c.watchers == nil {
		c.watchers = map[string][]chan watch.ObjectEvent{}
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

func (c *fakeCluster) Get(_ context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if o, ok := c.objects[objectKey(gvr, ns, name)]; ok {
		return o.DeepCopy(), nil
	}
	return nil, fmt.Errorf("%s %q not found", gvr.Resource, name)
}

func (c *fakeCluster) Delete(ctx context.Context, gvr schema.GroupVersionResource, ns, name string, uid types.UID) error {
	c.mu.Lock()
	c.deletes = append(c.deletes, objectKey(gvr, ns, name))
	writes := c.writes
	err := c.precondition(gvr, objectKey(gvr, ns, name), name, cluster.Precondition{UID: uid})
	c.mu.Unlock()
	if writes != nil {
		return asRefused(writes.Resource(gvr).Namespace(ns).Delete(ctx, name, metav1.DeleteOptions{}))
	}
	return err
}

func (c *fakeCluster) deleted() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.deletes...)
}

func (c *fakeCluster) record(call string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, call)
}

// recorded returns the calls so far.
func (c *fakeCluster) recorded() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

// Describe returns a kubectl-like text naming the object and its generation of the fixture.
func (c *fakeCluster) Describe(ctx context.Context, res discovery.Resource, ns, name string) (string, error) {
	obj, err := c.Get(ctx, res.GVR(), ns, name)
	if err != nil {
		return "", err
	}
	c.record("describe " + objectKey(res.GVR(), ns, name))
	return fmt.Sprintf("Name:         %s\nNamespace:    %s\nLabels:       %v\nResourceVersion: %s\n",
		name, ns, obj.GetLabels(), obj.GetResourceVersion()), nil
}

// Update stores obj if its resourceVersion is the stored one (else a Conflict, as the server answers).
func (c *fakeCluster) Update(_ context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	key := objectKey(gvr, obj.GetNamespace(), obj.GetName())
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, "update "+key)
	if c.writes != nil {
		_, err := c.writes.Resource(gvr).Namespace(obj.GetNamespace()).Update(context.Background(), obj, metav1.UpdateOptions{})
		return nil, asRefused(err)
	}
	if err := c.updateErr; err != nil {
		c.updateErr = nil
		return nil, err
	}
	old, ok := c.objects[key]
	if !ok {
		return nil, apierrors.NewNotFound(gvr.GroupResource(), obj.GetName())
	}
	if old.GetResourceVersion() != obj.GetResourceVersion() {
		return nil, apierrors.NewConflict(gvr.GroupResource(), obj.GetName(),
			errors.New("the object has been modified; please apply your changes to the latest version and try again"))
	}
	stored := obj.DeepCopy()
	stored.SetResourceVersion(fmt.Sprint(len(c.calls) + 1000))
	c.objects[key] = stored
	return stored.DeepCopy(), nil
}

// Replicas answers the scale of an object, with the stored object's UID and resourceVersion (its scale's,
// as the server's scale subresource copies them).
func (c *fakeCluster) Replicas(_ context.Context, gvr schema.GroupVersionResource, ns, name string) (cluster.ScaleState, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := objectKey(gvr, ns, name)
	n, ok := c.replicas[key]
	if !ok {
		return cluster.ScaleState{}, apierrors.NewNotFound(gvr.GroupResource(), name)
	}
	state := cluster.ScaleState{Replicas: n}
	if o, ok := c.objects[key]; ok {
		state.Precondition = cluster.Precondition{UID: o.GetUID(), ResourceVersion: o.GetResourceVersion()}
	}
	return state, nil
}

// Scale stores replicas if pre holds for the stored object, else answers Conflict as the server does.
func (c *fakeCluster) Scale(_ context.Context, gvr schema.GroupVersionResource, ns, name string, replicas int32, pre cluster.Precondition) error {
	key := objectKey(gvr, ns, name)
	c.record(fmt.Sprintf("scale %s %d", key, replicas))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.writes != nil {
		_, err := c.writes.Resource(gvr).Namespace(ns).Patch(context.Background(), name, types.MergePatchType, []byte(`{}`), metav1.PatchOptions{}, "scale")
		return asRefused(err)
	}
	if err := c.precondition(gvr, key, name, pre); err != nil {
		return err
	}
	c.replicas[key] = replicas
	return nil
}

func (c *fakeCluster) Restart(_ context.Context, gvr schema.GroupVersionResource, ns, name string, at time.Time, pre cluster.Precondition) error {
	c.record(fmt.Sprintf("restart %s %s", objectKey(gvr, ns, name), at.UTC().Format(time.RFC3339)))
	if c.writes != nil {
		_, err := c.writes.Resource(gvr).Namespace(ns).Patch(context.Background(), name, types.MergePatchType, []byte(`{}`), metav1.PatchOptions{})
		return asRefused(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.precondition(gvr, objectKey(gvr, ns, name), name, pre)
}

// precondition answers as the server does a write conditioned on pre to the stored object at key: NotFound
// when there is none, Conflict when its UID or resourceVersion is not pre's (unset fields are not checked).
// Objects the fixture does not hold are not checked. c.mu must be held.
func (c *fakeCluster) precondition(gvr schema.GroupVersionResource, key, name string, pre cluster.Precondition) error {
	o, ok := c.objects[key]
	switch {
	case !ok && c.gone[key]:
		return apierrors.NewNotFound(gvr.GroupResource(), name)
	case !ok:
		return nil
	case pre.UID != "" && o.GetUID() != pre.UID,
		pre.ResourceVersion != "" && o.GetResourceVersion() != pre.ResourceVersion:
		return apierrors.NewConflict(gvr.GroupResource(), name, errors.New("precondition failed"))
	}
	return nil
}

// Can denies what denied lists ("delete pods ns", "patch deployments/scale ns").
func (c *fakeCluster) Can(_ context.Context, q cluster.AccessQuery) (cluster.AccessAnswer, error) {
	res := q.GVR.Resource
	if q.Subresource != "" {
		res += "/" + q.Subresource
	}
	key := strings.Join([]string{q.Verb, res, q.Namespace}, " ")
	c.record("can " + key)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.denied[key] {
		return cluster.AccessAnswer{Reason: "RBAC: no rule allows it"}, nil
	}
	return cluster.AccessAnswer{Allowed: true}, nil
}

// asRefused returns a read-only refusal as kube.Cluster words it (the RefusedError itself).
func asRefused(err error) error {
	if refused := (*readonly.RefusedError)(nil); errors.As(err, &refused) {
		return refused
	}
	return err
}

// The resources the fakes and the tests name.
var (
	podsGVR     = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	nodesGVR    = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
	cronJobsGVR = schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "cronjobs"}
)
