package watch

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

// Source is the live row set of one Spec: client-go's reflector over the server's Table rows (reflector.go),
// its state, a coalesced change feed and sorted, filtered snapshots. All methods are safe for concurrent use;
// the reflector's writes never block on a reader.
//
// Start, Stop, Done and Notify are its Lifecycle's: Start starts the reflector (and, for a view listed without
// objects, the metadata fill) and returns at once; they stop when the Start context ends, when Stop is called,
// or on a terminal error. Stop waits for them, then releases the rows (later snapshots are empty); a terminal
// state (Forbidden, NotFound, MethodNotSupported, Unauthorized, BadRequest) is kept, any other becomes Stopped.
// Notify receives whenever rows, columns or state changed.
type Source struct {
	phased
	spec   Spec
	client *rest.RESTClient
	conv   *converter
	store  *rowStore
	snaps  snapshotter
	pulse  *pulseRecorder
	// busy is the "server busy" note its requests' 429 answers set (busy.go); State puts it first in Note.
	busy busyState

	// Guarded by the Lifecycle's mu:
	note   string // State.Note
	expect int    // State.Expected: set while the first list is previewed, 0 otherwise
	// filled tells whether the metadata fill has completed once (always true without a fill); settled is
	// closed once synced and filled are both true (Settled).
	filled  bool
	settled chan struct{}
}

// NewSource returns a Source for spec using cfg (it creates its own clients). It does not start it.
func NewSource(cfg *rest.Config, spec Spec) (*Source, error) {
	if spec.GVR.Resource == "" || spec.GVR.Version == "" {
		return nil, fmt.Errorf("watch: incomplete resource %q", spec.GVR.String())
	}
	s := &Source{
		spec:    spec,
		store:   newSourceStore(),
		pulse:   newPulseRecorder(nil),
		settled: make(chan struct{}),
		filled:  true,
	}
	s.initLifecycle(Hooks{Go: spec.Go, Run: s.run, Release: s.release}, State{Phase: Listing})
	s.busy.changed = s.Signal
	client, err := newTableClient(observeBusy(cfg, &s.busy))
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", spec.GVR.String(), err)
	}
	s.client = client
	s.conv = newConverter(spec.AllNamespaces(), s.Signal)
	s.store.ageCell = s.conv.ageCell
	if spec.Namespaced {
		s.conv.namespace = spec.Namespace
	}
	return s, nil
}

// Spec returns what the source watches.
func (s *Source) Spec() Spec { return s.spec }

// run starts the reflector and, for a view listed without objects, the metadata fill behind it (Hooks.Run:
// once, holding s.mu).
func (s *Source) run(ctx context.Context, spawn func(func())) {
	// The reflector LISTs rather than streaming the initial rows as a watch-list (sendInitialEvents): on 10k pods
	// across all namespaces the list synced in a median 2.2 s and the watch-list in 3.7 s (1.6–5.4 s), for the
	// same peak RSS. The watch decoder still keeps the initial-events-end bookmark, should that change.
	lw := &tableListWatch{client: s.client, spec: s.spec, conv: s.conv, noWatchList: true,
		connected: s.connected, disconnected: s.disconnected, pulse: s.pulse}
	lw.preview = s
	s.pulse.started()
	var fill *metadataFill
	if !s.spec.AllNamespaces() {
		// One namespace or a cluster-scoped resource: rows can be keyed by name, so list them without their
		// objects (a fraction of the server's work) and fill the metadata in behind.
		fill = newMetadataFill(lw, s.store, s.Signal, s.setNote)
		fill.done = s.setFilled
		s.filled = false
		lw.metadataLess.Store(true)
		lw.listedWithoutMetadata = fill.listed
	}
	r := s.newReflector(lw)
	spawn(func() { r.RunWithContext(ctx) })
	if fill != nil {
		spawn(func() { fill.run(ctx) })
	}
}

// release lets the rows go once the reflector has stopped (Hooks.Release): later snapshots are empty.
func (s *Source) release() {
	s.snaps.reset()
	s.store.clear()
}

// State returns the current phase and error, with the note and the expected row count of the first list.
// While the server answers its requests 429 Too Many Requests, the note says so first ("server busy, retrying
// in N s").
func (s *Source) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.state
	st.Note, st.Expected = s.note, s.expect
	if busy := s.busy.get(); busy != "" {
		st.Note = strings.TrimSuffix(busy+"; "+st.Note, "; ")
	}
	return st
}

// setNote sets State.Note and signals readers when it changed.
func (s *Source) setNote(note string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.note != note {
		s.note = note
		s.Signal()
	}
}

// Columns returns the current column definitions, wide ones included (Priority > 0); nil until known.
// The slice must not be modified.
func (s *Source) Columns() []Column { return s.conv.Columns() }

// Changes returns the keys added and updated and the rows deleted since the previous call, and resets them.
// The rows of the first list are not changes (a view opens with them); rows added, updated or deleted after it
// are, including those a relist finds changed. The changes are kept from the first call on: a reader that
// wants them calls Changes before Start (its first call returns nothing), and a source read only through
// Snapshot holds none.
func (s *Source) Changes() ChangeSet { return s.store.drain() }

// Snapshot returns the rows matching q.Filter sorted by q, at this moment. After a few changes it is patched
// from the previous snapshot of the same query rather than re-sorted.
func (s *Source) Snapshot(q Query) Snapshot {
	cols, version := s.conv.columnsVersion()
	return s.snaps.snapshot(s.store, q, cols, version)
}

// Pulse returns what the informer has done so far: its lists, watches, events and why it listed or watched
// again.
func (s *Source) Pulse() Pulse { return s.pulse.pulse(s.store.len()) }

// Row returns the current row with key.
func (s *Source) Row(key string) (*Row, bool) { return s.store.get(key) }

// Len returns the number of rows.
func (s *Source) Len() int { return s.store.len() }

// onAdd stores an added or updated row. Rows of the informer's initial list (initial) are the table the view
// opens with, not changes: they are not reported by Changes.
func (s *Source) onAdd(obj any, initial bool) {
	o, ok := obj.(*rowObject)
	if !ok || o == nil || o.get() == nil {
		return
	}
	if s.store.putObject(o, !initial) {
		s.Signal()
	}
}

func (s *Source) onDelete(obj any) {
	var key string
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		key, obj = d.Key, d.Obj
	}
	o, _ := obj.(*rowObject)
	var last *Row
	if r := rowOf(o); r != nil {
		last, key = r, r.Key
	}
	if key != "" && s.store.remove(key, last) {
		s.Signal()
	}
}

// keepRowMetadata returns the row object to store for obj, the reflector's object (nil if it is none): a stored
// row keeps only what rows need. The decoder already skips managedFields and every annotation but
// k8s.io/initial-events-end, which only a BOOKMARK needs; stored objects drop it.
func keepRowMetadata(obj any) *rowObject {
	o, _ := obj.(*rowObject)
	if o != nil && o.annotations != nil {
		return newRowObject(o.get(), nil)
	}
	return o
}

// rowOf returns o's row; nil when o is nil or holds none.
func rowOf(o *rowObject) *Row {
	if o == nil {
		return nil
	}
	return o.get()
}

// previewRows puts the rows of a page of the first list in the store as the rows the view opens with (the
// informer delivers the same objects once the list is complete, which changes nothing).
func (s *Source) previewRows(rows []*rowObject, expected int) {
	// The count first: a reader that sees the page's rows sees how many the list announced with them.
	s.mu.Lock()
	s.expect = expected
	s.mu.Unlock()
	for _, o := range rows {
		if o.get() != nil {
			s.store.putObject(o, false)
		}
	}
	s.Signal()
}

// previewGone removes the previewed rows with keys: rows of the first page that the whole list, listed after
// it, no longer holds (the informer, which never saw them, will not).
func (s *Source) previewGone(keys []string) {
	for _, k := range keys {
		s.store.remove(k, nil)
	}
	if len(keys) > 0 {
		s.Signal()
	}
}

// previewDone ends the first list's preview. When that list failed, the informer holds none of its rows and
// will list again: the rows previewed go, lest a row deleted before that list stay on screen.
func (s *Source) previewDone(ok bool) {
	s.mu.Lock()
	s.expect = 0
	s.mu.Unlock()
	if !ok {
		s.store.clear()
	}
	s.Signal()
}

// setSynced is called once the informer has delivered its first list.
func (s *Source) setSynced() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.syncedLocked()
	s.settleLocked()
}

// setFilled is called after each metadata fill that completed.
func (s *Source) setFilled() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.filled = true
	s.settleLocked()
}

// settleLocked closes settled once the first list and its fill have both completed.
func (s *Source) settleLocked() {
	if s.synced && s.filled {
		select {
		case <-s.settled:
		default:
			close(s.settled)
		}
	}
}

// Settled returns a channel that is closed once the first list has completed and, in a view whose rows are
// listed without their objects (one namespace, or cluster-scoped), once their labels and UIDs have been filled
// in behind: the moment the work of opening the view is done and what it allocated on the way is garbage. It
// is never closed for a source that stops before then.
func (s *Source) Settled() <-chan struct{} { return s.settled }
