package tree

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
	"kscope/watch"
)

// Source lists and watches the metadata of every object of its kinds: namespaced kinds in one namespace
// (or all), cluster-scoped kinds everywhere. Each kind has its own informer, which stops for good when the
// user may not list the kind, when the kind is not served (any terminal error) or when the Source stops.
// All methods are safe for concurrent use. Start, Stop, Done and Notify are its Lifecycle's: Start starts one
// informer per kind and returns at once; they run until Stop or until the Start context ends, and Stop waits
// for them. Notify receives (coalesced) after objects arrived, changed or went, or a kind's listing ended or
// failed.
type Source struct {
	*watch.Lifecycle
	client    metadata.Interface
	kinds     []Kind
	namespace string
	counter   *Counter

	mu        sync.Mutex
	begun     time.Time
	completed time.Duration
	states    []kindState
	informers []cache.SharedIndexInformer
}

// kindState is how the listing of one kind stands.
type kindState struct {
	listed bool
	class  apierr.Class // terminal: the informer stopped
	err    string       // the last error ("" when none)
}

// NewSource returns a Source (not started) over client for kinds; namespace "" lists namespaced kinds in
// every namespace. counter, when not nil, is the one counting client's requests; Progress reports it. start
// starts the source's goroutines (nil: plain goroutines).
func NewSource(client metadata.Interface, kinds []Kind, namespace string, counter *Counter, start spawn.Func) *Source {
	s := &Source{client: client, kinds: kinds, namespace: namespace, counter: counter,
		states: make([]kindState, len(kinds))}
	s.Lifecycle = watch.NewLifecycle(watch.Hooks{Go: start, Run: s.run})
	return s
}

// run starts one informer per kind (watch.Hooks.Run: once, holding the Lifecycle's lock).
func (s *Source) run(ctx context.Context, spawn func(func())) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.begun = time.Now()
	for i, k := range s.kinds {
		ns := s.namespace
		if !k.Namespaced {
			ns = metav1.NamespaceAll
		}
		inf := cache.NewSharedIndexInformer(listWatch(s.client, k, ns), &metav1.PartialObjectMetadata{}, 0, cache.Indexers{})
		_ = inf.SetTransform(lean) // (errors only when already started)
		kctx, kcancel := context.WithCancel(ctx)
		_ = inf.SetWatchErrorHandlerWithContext(func(_ context.Context, _ *cache.Reflector, err error) {
			if s.failed(i, err) {
				kcancel()
			}
		})
		changed := func(any) { s.Signal() }
		_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: changed,
			UpdateFunc: func(_, o any) { changed(o) }, DeleteFunc: changed})
		s.informers = append(s.informers, inf)
		spawn(func() {
			defer kcancel()
			inf.RunWithContext(kctx)
		})
		spawn(func() {
			if cache.WaitForCacheSync(kctx.Done(), inf.HasSynced) {
				s.listed(i)
			}
		})
	}
}

// listed marks kind i listed.
func (s *Source) listed(i int) {
	s.mu.Lock()
	s.states[i].listed, s.states[i].err = true, ""
	s.checkComplete()
	s.mu.Unlock()
	s.Signal()
}

// failed records kind i's error and tells whether it is terminal (the informer must stop).
func (s *Source) failed(i int, err error) bool {
	class := apierr.Classify(err)
	s.mu.Lock()
	s.states[i].err = apierr.OneLine(apierr.Message(err))
	if class.Terminal() {
		s.states[i].class = class
		s.checkComplete()
	}
	s.mu.Unlock()
	s.Signal()
	return class.Terminal()
}

// checkComplete notes when every kind is listed or has ended. Callers hold s.mu.
func (s *Source) checkComplete() {
	if s.completed != 0 {
		return
	}
	for _, st := range s.states {
		if !st.listed && !st.class.Terminal() {
			return
		}
	}
	s.completed = max(time.Since(s.begun), time.Nanosecond)
}

// Progress is how the listing stands. A plain value.
type Progress struct {
	// Total is the number of kinds; Listed those listed or ended (not visible or failed).
	Total, Listed int
	// NotVisible names the kinds the user may not list (403), Failed the others that ended with an error,
	// Retrying those not listed yet whose last request failed and is being retried ("pods: connection
	// refused").
	NotVisible []string
	Failed     []string
	Retrying   []string
	// Complete is the time from Start to the moment every kind was listed or ended (0 until then).
	Complete time.Duration
	// Requests and Bytes are what the Source's client has sent and read so far (0 without a Counter).
	Requests, Bytes int64
}

// Progress returns how the listing stands now.
func (s *Source) Progress() Progress {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := Progress{Total: len(s.kinds), Complete: s.completed}
	for i, st := range s.states {
		name := s.kinds[i].Name()
		switch {
		case st.class == apierr.Forbidden:
			p.NotVisible = append(p.NotVisible, name)
		case st.class.Terminal():
			p.Failed = append(p.Failed, name+": "+st.err)
		case st.err != "" && !st.listed: // (once listed, the reflector relists and rewatches on its own)
			p.Retrying = append(p.Retrying, name+": "+st.err)
		}
		if st.listed || st.class.Terminal() {
			p.Listed++
		}
	}
	if s.counter != nil {
		p.Requests, p.Bytes = s.counter.Requests(), s.counter.Bytes()
	}
	return p
}

// Objects returns every object the informers hold now, kind by kind in the Source's order.
func (s *Source) Objects() []Object {
	s.mu.Lock()
	infs := append([]cache.SharedIndexInformer(nil), s.informers...)
	s.mu.Unlock()
	var out []Object
	for i, inf := range infs {
		for _, item := range inf.GetStore().List() {
			if m, ok := item.(*metav1.PartialObjectMetadata); ok {
				out = append(out, objectOf(s.kinds[i], m))
			}
		}
	}
	return out
}

func objectOf(k Kind, m *metav1.PartialObjectMetadata) Object {
	return Object{Kind: k, Namespace: m.Namespace, Name: m.Name, UID: m.UID, ResourceVersion: m.ResourceVersion,
		Created: m.CreationTimestamp.Time, Deleting: m.DeletionTimestamp != nil, Owners: m.OwnerReferences}
}

// listWatch lists and watches the metadata of kind k in namespace ns (all: ""). The reflector LISTs (from the
// server's watch cache) rather than streaming the initial objects as a watch-list: a watch-list of a quiet
// kind waited seconds here for its initial-events-end bookmark (a tree of ~60 kinds took 5.7 s instead of
// 0.3 s now and then), as the row sources found (package watch).
func listWatch(client metadata.Interface, k Kind, ns string) cache.ListerWatcher {
	res := client.Resource(k.GVR).Namespace(ns)
	return cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return res.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (kwatch.Interface, error) {
			return res.Watch(ctx, o)
		},
	}, noWatchList{})
}

// noWatchList tells client-go's reflector not to use streaming lists.
type noWatchList struct{}

// IsWatchListSemanticsUnSupported is true: see listWatch.
func (noWatchList) IsWatchListSemanticsUnSupported() bool { return true }

// lean keeps only the metadata a tree reads (no managedFields, annotations or labels), so that a namespace of
// 10k pods holds a fraction of their metadata.
func lean(obj any) (any, error) {
	if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
		m.ManagedFields, m.Annotations, m.Labels = nil, nil, nil
	}
	return obj, nil
}
