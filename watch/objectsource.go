package watch

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"
)

// ObjectSource is the live row set of one Spec whose Columns are computed from the objects themselves (kubectl's
// custom columns): a dynamicinformer SharedIndexInformer over unstructured objects, each cut down by the
// informer's transform to what the columns read and the metadata rows need (managedFields, annotations and
// every other field dropped), and rows computed from it. The first list streams as a watch-list where the
// server and client offer it: each object is cut down as it arrives, and the whole list is never held. It has the methods of Source (the same row store,
// change feed, snapshots, phase and errors), so that a table reads it as it reads a Source. All methods are
// safe for concurrent use; informer callbacks never block on a reader. Start, Stop, Done and Notify are its
// Lifecycle's, as Source's: Start starts the informer, Stop waits for it and releases the rows. A source made
// with the connection's config (NewObjectSourceWithConfig, kscope's) runs no informer but a reflector over the
// objects, read in protobuf where a codec reads the kind and in JSON otherwise, which writes each object's row
// straight into the rows.
type ObjectSource struct {
	phased
	spec   Spec
	client dynamic.Interface
	cols   []Column
	keep   *Fields
	ageIdx int // the Age column's index, -1 for none
	// whole are the indexes of the columns computed from whole objects (ObjectColumn.Whole).
	whole  []int
	labels labelSets
	store  *rowStore
	snaps  snapshotter
	// proto, when set, lists and watches the objects in place of the dynamic informer, in protobuf or JSON
	// (NewObjectSourceWithConfig).
	proto *protoListWatch
	// earlyTold is when the readers were last told of the first list's rows as it arrived (earlyRow).
	earlyTold time.Time
}

// rowMetadata are the metadata fields every object keeps: those a Row holds.
var rowMetadata = []string{"name", "namespace", "uid", "resourceVersion", "creationTimestamp", "labels"}

// identityMetadata are the metadata fields the objects of a source of whole-object columns only keep: what
// keys a row and tells its versions apart.
var identityMetadata = rowMetadata[:4]

// NewObjectSource returns a source for spec (whose Columns must be set) reading objects with client. It does not
// start it. When every column is computed from the whole object (ObjectColumn.Whole: a table's HEALTH, whose
// cells another table shows by row key), the objects keep only their name, namespace, uid and resourceVersion:
// such a source's rows have no Labels and no Created time.
func NewObjectSource(client dynamic.Interface, spec Spec) (*ObjectSource, error) {
	if spec.GVR.Resource == "" || spec.GVR.Version == "" {
		return nil, fmt.Errorf("watch: incomplete resource %q", spec.GVR.String())
	}
	if len(spec.Columns) == 0 {
		return nil, fmt.Errorf("watch %s: no columns", spec.GVR.String())
	}
	s := &ObjectSource{spec: spec, client: client, keep: &Fields{}, ageIdx: -1, store: newSourceStore()}
	s.initLifecycle(Hooks{Go: spec.Go, Run: s.run, Release: s.release}, State{Phase: Listing})
	for _, name := range []string{"apiVersion", "kind"} {
		s.keep.Add(name).Whole()
	}
	meta := identityMetadata
	for i, c := range spec.Columns {
		s.cols = append(s.cols, c.Column)
		if c.Column.Age && s.ageIdx < 0 {
			s.ageIdx = i
		}
		if c.Whole != nil {
			s.whole = append(s.whole, i)
			continue
		}
		meta = rowMetadata
		s.keep.Merge(c.Fields)
	}
	for _, name := range meta {
		s.keep.Add("metadata", name).Whole()
	}
	s.store.ageCell = func() int { return s.ageIdx }
	return s, nil
}

// Spec returns what the source watches.
func (s *ObjectSource) Spec() Spec { return s.spec }

// run starts the informer and the wait for its first list (Hooks.Run: once, holding s.mu); or, over a
// built-in kind read in protobuf, the reflector of its rows.
func (s *ObjectSource) run(ctx context.Context, spawn func(func())) {
	if s.proto != nil {
		r := newRowReflector(s.proto, s, s.store, s.watchError, s.spec)
		spawn(func() { r.RunWithContext(ctx) })
		return
	}
	client := observedClient{Interface: s.client, hooks: connectionHooks{connected: s.connected, disconnected: s.disconnected}}
	spec := s.spec
	inf := dynamicinformer.NewFilteredDynamicInformer(client, spec.GVR, spec.Namespace, 0, cache.Indexers{},
		func(o *metav1.ListOptions) {
			o.LabelSelector, o.FieldSelector = spec.LabelSelector, spec.FieldSelector
		}).Informer()
	// Errors here only mean the informer already started, which cannot be the case.
	_ = inf.SetTransform(s.transform)
	_ = inf.SetWatchErrorHandlerWithContext(func(_ context.Context, _ *cache.Reflector, err error) { s.watchError(err) })
	reg, err := inf.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc:    s.onAdd,
		UpdateFunc: func(_, obj any) { s.onAdd(obj, false) },
		DeleteFunc: s.onDelete,
	})
	if err != nil {
		s.transitionLocked(event{kind: evStopped}, err) // (nothing started: Done is closed at once)
		return
	}
	spawn(func() { inf.RunWithContext(ctx) })
	spawn(func() {
		select {
		case <-reg.HasSyncedChecker().Done():
			s.setSynced()
		case <-ctx.Done():
		}
	})
}

// release lets the rows go once the informer has stopped (Hooks.Release).
func (s *ObjectSource) release() {
	s.snaps.reset()
	s.store.clear()
}

// Columns returns the columns of spec.Columns, in order. The slice must not be modified.
func (s *ObjectSource) Columns() []Column { return s.cols }

// Changes returns and resets the changes since the previous call; as Source.Changes.
func (s *ObjectSource) Changes() ChangeSet { return s.store.drain() }

// Snapshot returns the rows matching q.Filter sorted by q, as Source.Snapshot does.
func (s *ObjectSource) Snapshot(q Query) Snapshot { return s.snaps.snapshot(s.store, q, s.cols, 1) }

// Row returns the current row with key.
func (s *ObjectSource) Row(key string) (*Row, bool) { return s.store.get(key) }

// Len returns the number of rows.
func (s *ObjectSource) Len() int { return s.store.len() }

// transform is the informer's TransformFunc: an object keeps only the fields its columns read and the metadata
// its row needs. A tombstone's object is cut down the same way.
func (s *ObjectSource) transform(obj any) (any, error) {
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		return &unstructured.Unstructured{Object: s.cut(o.Object)}, nil
	case cache.DeletedFinalStateUnknown:
		if u, ok := o.Obj.(*unstructured.Unstructured); ok {
			o.Obj = &unstructured.Unstructured{Object: s.cut(u.Object)}
		}
		return o, nil
	}
	return obj, nil
}

// wholeCells is the field under which a cut-down object keeps the cells of the columns computed from the
// whole object (a list of strings, in the order of ObjectSource.whole). No Kubernetes object has a top-level
// field of that name.
const wholeCells = "kscope.cells"

// cut returns the part of obj the source keeps: the fields the columns read, and the cells of the columns
// computed from the whole object.
func (s *ObjectSource) cut(obj map[string]any) map[string]any {
	kept := s.keep.Keep(obj) // a new map: s.keep names fields below the root (apiVersion, kind, metadata)
	if len(s.whole) == 0 {
		return kept
	}
	if cells, done := obj[wholeCells]; done {
		// Cut down already: the informer may transform an object twice (a watch-list's objects are
		// transformed as they arrive, then again when they replace the store), so cut must be idempotent.
		kept[wholeCells] = cells
		return kept
	}
	cells := make([]any, len(s.whole))
	for j, i := range s.whole {
		cells[j] = s.spec.Columns[i].Whole(obj)
	}
	kept[wholeCells] = cells
	return kept
}

// row computes the row of an object as the transform left it.
func (s *ObjectSource) row(u *unstructured.Unstructured) *Row {
	cells := make([]string, len(s.spec.Columns))
	for i, c := range s.spec.Columns {
		if i != s.ageIdx && c.Whole == nil {
			cells[i] = c.Cell(u.Object)
		}
	}
	if kept, ok := u.Object[wholeCells].([]any); ok {
		for j, i := range s.whole {
			if j < len(kept) {
				cells[i], _ = kept[j].(string)
			}
		}
	}
	created := u.GetCreationTimestamp().Time
	return &Row{
		Key:             rowKey(u.GetNamespace(), u.GetName()),
		Namespace:       u.GetNamespace(),
		Name:            u.GetName(),
		UID:             types.UID(u.GetUID()),
		ResourceVersion: u.GetResourceVersion(),
		Created:         created,
		Labels:          s.labels.share(u.GetLabels()),
		Cells:           cells,
		text:            searchText(cells, s.ageIdx),
	}
}

// onAdd stores an added or updated object's row (the row object itself where the protobuf reflector made it);
// the rows of the first list are not changes.
func (s *ObjectSource) onAdd(obj any, initial bool) {
	var o *rowObject
	switch v := obj.(type) {
	case *unstructured.Unstructured:
		o = newRowObject(s.row(v), nil)
	case *rowObject:
		o = v
	}
	if o == nil || o.get() == nil {
		return
	}
	if s.store.putObject(o, !initial) {
		s.Signal()
	}
}

// earlyRows is how often, at most, a source of custom columns tells its readers of the rows of its first list
// while that list arrives (protoListWatch.early): each time, a table sorts every row it has again. Telling of
// each row took a table of 50k pods from 2.6 s to complete to 4.4 s; every 500 ms, to 2.7–3.6 s; a HEALTH
// column told every 500 ms took 2.5–3.3 s to fill instead of 1.1–1.5 s, and is not told early at all.
const earlyRows = time.Second

// earlyRow stores a row of the first list as it is decoded (not a change), telling the readers at once of the
// first and then every earlyRows at most; the list's end (the reflector's Replace, then synced) tells of the
// rest. The reflector's goroutine only (s.earlyTold is its own).
func (s *ObjectSource) earlyRow(o *rowObject) {
	if o.get() == nil || !s.store.putObject(o, false) {
		return
	}
	if now := time.Now(); now.Sub(s.earlyTold) >= earlyRows {
		s.earlyTold = now
		s.Signal()
	}
}

func (s *ObjectSource) onDelete(obj any) {
	var key string
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		key, obj = d.Key, d.Obj
	}
	var last *Row
	switch v := obj.(type) {
	case *unstructured.Unstructured:
		last = s.row(v)
	case *rowObject:
		last = rowOf(v)
	}
	if last != nil {
		key = last.Key
	}
	if key != "" && s.store.remove(key, last) {
		s.Signal()
	}
}

// setSynced is called once the informer has delivered its first list.
func (s *ObjectSource) setSynced() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.syncedLocked()
}
