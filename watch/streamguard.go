package watch

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// An ObjectSource's informer streams its first list as a watch (sendInitialEvents; client-go's WatchListClient
// is on by default) unless its client says it cannot, and trusts the stream to end the list with a BOOKMARK
// annotated k8s.io/initial-events-end. A server that never sends it (an aggregated API that does not know the
// protocol, a proxy that strips bookmarks) leaves client-go waiting for the watch's timeout, five to ten
// minutes, then streaming again: the view stays "listing" with no rows, for good. streamGuard bounds that:
// a streamed list silent for streamEndBound without its end is stopped, the source says so, and every
// later streamed list of the source is refused before it is sent, which makes the reflector fall back to a
// plain LIST (and a watch after it) at once.

// streamEndBound is how long a streamed list may go without an event before its end: the server sends the
// initial events from its watch cache in one go, so seconds of silence mean the end is not coming.
var streamEndBound = 10 * time.Second

// errNoStreamEnd is what a refused streamed list returns: not a retriable error for client-go, so its
// reflector lists instead.
var errNoStreamEnd = errors.New("the server does not end its streamed lists (no initial-events-end bookmark): listing instead")

// fellBackNote is the note of a source whose streamed list never ended.
const fellBackNote = "the server never ended its streamed list; listed instead"

// streamGuard watches the streamed lists of one source. Safe for concurrent use.
type streamGuard struct {
	// spawn starts the goroutine that passes a streamed list's events on.
	spawn func(func())
	// fellBack is called once, when a streamed list went silent without its end.
	fellBack func()
	refused  atomic.Bool
}

// streamedList tells whether opts ask for a streamed list.
func streamedList(opts metav1.ListOptions) bool {
	return opts.SendInitialEvents != nil && *opts.SendInitialEvents
}

// guard passes w's events on, and stops it (its result channel closed) if streamEndBound passes without an
// event before the bookmark that ends the list; from then on the guard refuses streamed lists.
func (g *streamGuard) guard(w watch.Interface) watch.Interface {
	gw := &guardedWatch{inner: w, out: make(chan watch.Event), stop: make(chan struct{})}
	g.spawn(func() { g.pass(gw) })
	return gw
}

// pass forwards gw's events until it ends, is stopped, or goes silent before the list's end.
func (g *streamGuard) pass(gw *guardedWatch) {
	defer close(gw.out)
	defer gw.inner.Stop()
	ended := false
	timer := time.NewTimer(streamEndBound)
	defer timer.Stop()
	for {
		var silent <-chan time.Time
		if !ended {
			silent = timer.C
		}
		select {
		case ev, ok := <-gw.inner.ResultChan():
			if !ok {
				return
			}
			if ev.Type == watch.Bookmark && listEnd(ev) {
				ended = true
			}
			if !ended {
				timer.Reset(streamEndBound)
			}
			select {
			case gw.out <- ev:
			case <-gw.stop:
				return
			}
		case <-silent:
			if g.refused.CompareAndSwap(false, true) && g.fellBack != nil {
				g.fellBack()
			}
			return
		case <-gw.stop:
			return
		}
	}
}

// listEnd tells whether a BOOKMARK ends a streamed list.
func listEnd(ev watch.Event) bool {
	m, ok := ev.Object.(metav1.Object)
	return ok && m.GetAnnotations()[initialEventsEnd] == "true"
}

// guardedWatch is a watch whose events a streamGuard passes on.
type guardedWatch struct {
	inner watch.Interface
	out   chan watch.Event
	stop  chan struct{}
	once  sync.Once
}

// Stop implements watch.Interface.
func (w *guardedWatch) Stop() { w.once.Do(func() { close(w.stop) }) }

// ResultChan implements watch.Interface.
func (w *guardedWatch) ResultChan() <-chan watch.Event { return w.out }
