package changes

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"

	"kscope/apierr"
	"kscope/spawn"
	"kscope/tree"
	"kscope/watch"
)

// Source watches the metadata of every object of its kinds in its namespaces (cluster-scoped kinds only
// when it watches all namespaces) and keeps the changes in a Model. Start, Stop, Done and Notify are its
// Lifecycle's: Start starts one reflector per kind and namespace and returns at once; they run until Stop or
// the Start context ends. Notify receives (coalesced) after a change or a kind's listing ended or failed.
// Safe for concurrent use.
type Source struct {
	*watch.Lifecycle
	client metadata.Interface
	slots  []slot
	model  *Model
	now    func() time.Time

	mu     sync.Mutex
	states []slotState
}

// slot is one watch: a kind in a namespace ("" for all, and for a cluster-scoped kind).
type slot struct {
	kind      tree.Kind
	namespace string
}

// slotState is how one watch stands.
type slotState struct {
	listed bool
	class  apierr.Class // terminal: the watch stopped
	err    string
}

// NewSource returns a Source (not started) over client for kinds in namespaces ([""] or none: all; then
// cluster-scoped kinds too), keeping capacity changes (<= 0: Capacity). start starts its goroutines (nil:
// plain goroutines).
func NewSource(client metadata.Interface, kinds []tree.Kind, namespaces []string, capacity int, start spawn.Func) *Source {
	all := len(namespaces) == 0 || len(namespaces) == 1 && namespaces[0] == ""
	var slots []slot
	for _, k := range kinds {
		switch {
		case !k.Namespaced && all:
			slots = append(slots, slot{kind: k})
		case !k.Namespaced:
		case all:
			slots = append(slots, slot{kind: k, namespace: metav1.NamespaceAll})
		default:
			for _, ns := range namespaces {
				slots = append(slots, slot{kind: k, namespace: ns})
			}
		}
	}
	slotKinds := make([]tree.Kind, len(slots))
	for i, s := range slots {
		slotKinds[i] = s.kind
	}
	s := &Source{client: client, slots: slots, model: NewModel(slotKinds, capacity), now: time.Now,
		states: make([]slotState, len(slots))}
	s.Lifecycle = watch.NewLifecycle(watch.Hooks{Go: start, Run: s.run})
	return s
}

// Model is the feed the Source writes into.
func (s *Source) Model() *Model { return s.model }

// run starts one reflector per slot (watch.Hooks.Run: once, holding the Lifecycle's lock).
func (s *Source) run(ctx context.Context, spawn func(func())) {
	for i, sl := range s.slots {
		kctx, kcancel := context.WithCancel(ctx)
		lw := &slotListWatch{res: s.client.Resource(sl.kind.GVR).Namespace(sl.namespace), failed: func(err error) {
			if s.failed(i, err) {
				kcancel()
			}
		}}
		r := cache.NewReflectorWithOptions(lw, &metav1.PartialObjectMetadata{}, &slotStore{s: s, slot: i},
			cache.ReflectorOptions{Name: "kscope changes " + sl.kind.Name(), TypeDescription: sl.kind.Name(),
				Backoff: watch.ReconnectBackoff()})
		spawn(func() {
			defer kcancel()
			r.RunWithContext(kctx)
		})
	}
}

// failed records slot i's error and tells whether it is terminal (the watch must stop).
func (s *Source) failed(i int, err error) bool {
	class := apierr.Classify(err)
	s.mu.Lock()
	s.states[i].err = apierr.OneLine(apierr.Message(err))
	if class.Terminal() {
		s.states[i].class = class
	}
	s.mu.Unlock()
	s.Signal()
	return class.Terminal()
}

// listed marks slot i listed.
func (s *Source) listed(i int) {
	s.mu.Lock()
	s.states[i].listed, s.states[i].err = true, ""
	s.mu.Unlock()
	s.Signal()
}

// Progress is how the watches stand. A plain value.
type Progress struct {
	// Total is the number of watches (a kind in a namespace); Listed those listed or ended.
	Total, Listed int
	// NotVisible names the kinds the user may not list or watch (403), each once; Failed the others that
	// ended with an error ("widgets.example.com: not found").
	NotVisible, Failed []string
}

// Progress returns how the watches stand now.
func (s *Source) Progress() Progress {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := Progress{Total: len(s.slots)}
	seen := map[string]bool{}
	for i, st := range s.states {
		name := s.slots[i].kind.Name()
		switch {
		case seen[name]:
		case st.class == apierr.Forbidden:
			seen[name] = true
			p.NotVisible = append(p.NotVisible, name)
		case st.class.Terminal():
			seen[name] = true
			p.Failed = append(p.Failed, name+": "+st.err)
		}
		if st.listed || st.class.Terminal() {
			p.Listed++
		}
	}
	return p
}

// slotListWatch lists and watches one slot's metadata, reporting failures (not caused by ctx ending) to
// failed. The reflector lists rather than streaming the initial objects (see tree's listWatch).
type slotListWatch struct {
	res    metadata.ResourceInterface
	failed func(error)
}

// ListWithContext implements cache.ListerWatcherWithContext.
func (lw *slotListWatch) ListWithContext(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
	list, err := lw.res.List(ctx, o)
	if err != nil && ctx.Err() == nil {
		lw.failed(err)
	}
	return list, err
}

// WatchWithContext implements cache.ListerWatcherWithContext.
func (lw *slotListWatch) WatchWithContext(ctx context.Context, o metav1.ListOptions) (kwatch.Interface, error) {
	w, err := lw.res.Watch(ctx, o)
	if err != nil && ctx.Err() == nil && apierr.Classify(err).Terminal() {
		lw.failed(err)
	}
	return w, err
}

// List implements cache.Lister.
func (lw *slotListWatch) List(o metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), o)
}

// Watch implements cache.Watcher.
func (lw *slotListWatch) Watch(o metav1.ListOptions) (kwatch.Interface, error) {
	return lw.WatchWithContext(context.Background(), o)
}

// IsWatchListSemanticsUnSupported is true: the reflector lists (see tree's listWatch).
func (*slotListWatch) IsWatchListSemanticsUnSupported() bool { return true }

// slotStore is the store one slot's reflector writes to (cache.ReflectorStore): straight into the model.
// The reflector calls it from its one goroutine.
type slotStore struct {
	s    *Source
	slot int
	done bool // the first list was taken
}

func (st *slotStore) Add(obj any) error {
	if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
		st.s.model.Added(st.slot, m, st.s.now())
		st.s.Signal()
	}
	return nil
}

func (st *slotStore) Update(obj any) error {
	if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
		st.s.model.Updated(st.slot, m, st.s.now())
		st.s.Signal()
	}
	return nil
}

func (st *slotStore) Delete(obj any) error {
	if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
		st.s.model.Deleted(st.slot, m, st.s.now())
		st.s.Signal()
	}
	return nil
}

// Replace takes a whole list (the first: the state only; a relist: what differs).
func (st *slotStore) Replace(list []any, _ string) error {
	items := make([]*metav1.PartialObjectMetadata, 0, len(list))
	for _, obj := range list {
		if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
			items = append(items, m)
		}
	}
	st.s.model.List(st.slot, items, st.s.now())
	if !st.done {
		st.done = true
		st.s.listed(st.slot)
	}
	st.s.Signal()
	return nil
}

// Resync does nothing: no resync period.
func (*slotStore) Resync() error { return nil }
