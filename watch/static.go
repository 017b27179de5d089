package watch

import (
	"context"
	"sync"
)

// StaticSource is a row set filled by hand, for tests of code that reads a Source (the UI): Put, Delete,
// SetState and SetColumns stand for the server. It has the methods of *Source that the UI reads (Spec, Start,
// Stop, State, Columns, Notify, Changes, Snapshot, Row) and runs them on the same row store and snapshot code
// as a Source: the same natural and column orders, filters, change marks and coalesced notifications; there
// is no informer and no server. All methods are safe for concurrent use.
type StaticSource struct {
	spec   Spec
	store  *rowStore
	snaps  snapshotter
	notify chan struct{}

	mu          sync.Mutex
	columns     []Column
	colsVersion uint64
	state       State
	started     bool
	stopped     bool
	settled     chan struct{} // closed once started and Synced (Settled)
}

// NewStaticSource returns a synced source for spec with columns and rows. rows are what the first list
// returned: they are not reported by Changes. Rows follow Put's rules.
func NewStaticSource(spec Spec, columns []Column, rows ...*Row) *StaticSource {
	s := &StaticSource{spec: spec, store: newRowStore(), notify: make(chan struct{}, 1), columns: columns,
		state: State{Phase: Synced}, settled: make(chan struct{})}
	s.store.ageCell = s.ageCell
	for _, r := range rows {
		s.store.putListed(keyed(r))
	}
	return s
}

// keyed returns r, or for a row without a Key a copy keyed as the informer keys it ("namespace/name").
func keyed(r *Row) *Row {
	if r.Key != "" {
		return r
	}
	c := *r
	c.Key = rowKey(r.Namespace, r.Name)
	return &c
}

// Put adds rows or replaces the rows with their keys, as informer adds and updates do: a new key is reported
// by Changes as Added, a replaced one as Updated (a key added since the last Changes stays Added only). As
// for an informer update, a row with the same non-empty ResourceVersion and UID (and as many cells) as the
// current one changes nothing. A row without a ResourceVersion replacing one is taken as a row of a
// metadata-less relist: with the same cells as the current row but for the Age column it changes nothing;
// otherwise it keeps the current row's UID, Labels and Created if that has a UID. A row without a Key is keyed "namespace/name"
// ("name" when cluster-scoped). Rows must not be modified after Put. After Stop, Put does nothing.
func (s *StaticSource) Put(rows ...*Row) {
	if s.Stopped() {
		return
	}
	changed := false
	for _, r := range rows {
		changed = s.store.put(keyed(r)) || changed
	}
	if changed {
		s.signal()
	}
}

// Delete removes the rows with keys, as informer deletes do: Changes reports each as Deleted with its last
// row (a key added since the last Changes is not reported at all). Unknown keys are ignored. After Stop,
// Delete does nothing.
func (s *StaticSource) Delete(keys ...string) {
	if s.Stopped() {
		return
	}
	changed := false
	for _, k := range keys {
		changed = s.store.remove(k, nil) || changed
	}
	if changed {
		s.signal()
	}
}

// SetState sets the state State returns, whatever the current one (no state machine), and notifies.
func (s *StaticSource) SetState(st State) {
	s.mu.Lock()
	s.state = st
	s.settleLocked()
	s.mu.Unlock()
	s.signal()
}

// SetColumns replaces the column definitions, as a server's new Table columns do, and notifies. Cached sort
// orders are rebuilt for the new columns. cols must not be modified afterwards.
func (s *StaticSource) SetColumns(cols []Column) {
	s.mu.Lock()
	s.columns = cols
	s.colsVersion++
	s.mu.Unlock()
	s.signal()
}

// Started tells whether Start was called (before any Stop).
func (s *StaticSource) Started() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.started
}

// Stopped tells whether Stop was called.
func (s *StaticSource) Stopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

// Spec returns the spec the source was made for.
func (s *StaticSource) Spec() Spec { return s.spec }

// Start records the call; rows change only through Put and Delete. Calling it again, or after Stop, does
// nothing. ctx is not used.
func (s *StaticSource) Start(context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopped {
		s.started = true
		s.settleLocked()
	}
}

// Settled is Source.Settled: closed once the source has started and its state has been Synced (there is no
// fill to wait for).
func (s *StaticSource) Settled() <-chan struct{} { return s.settled }

func (s *StaticSource) settleLocked() {
	if s.started && s.state.Phase == Synced {
		select {
		case <-s.settled:
		default:
			close(s.settled)
		}
	}
}

// Stop ends the source as Source.Stop does: the state becomes Stopped unless it is terminal, and the rows are
// released (later snapshots are empty). It is idempotent.
func (s *StaticSource) Stop() {
	s.mu.Lock()
	s.stopped = true
	if next, ok := nextPhase(s.state.Phase, true, event{kind: evStopped}); ok {
		s.state = State{Phase: next}
	}
	s.mu.Unlock()
	s.signal()
	s.snaps.reset()
	s.store.clear()
}

// State returns the state set last (Synced at first).
func (s *StaticSource) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Columns returns the current columns. The slice must not be modified.
func (s *StaticSource) Columns() []Column {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.columns
}

// Notify returns a channel (capacity 1) that receives whenever rows, columns or state changed; signals are
// coalesced, as Source's.
func (s *StaticSource) Notify() <-chan struct{} { return s.notify }

// Changes returns the keys added and updated and the rows deleted since the previous call, and resets them.
func (s *StaticSource) Changes() ChangeSet { return s.store.drain() }

// Snapshot returns the rows matching q.Filter sorted by q, exactly as Source.Snapshot orders them.
func (s *StaticSource) Snapshot(q Query) Snapshot {
	s.mu.Lock()
	cols, version := s.columns, s.colsVersion
	s.mu.Unlock()
	return s.snaps.snapshot(s.store, q, cols, version)
}

// Row returns the current row with key.
func (s *StaticSource) Row(key string) (*Row, bool) { return s.store.get(key) }

// Len returns the number of rows.
func (s *StaticSource) Len() int { return s.store.len() }

// signal wakes a reader of Notify without ever blocking.
func (s *StaticSource) signal() { wake(s.notify) }

// ageCell returns the index of the first Age column, or -1 (the store's rowStore.ageCell).
func (s *StaticSource) ageCell() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range s.columns {
		if c.Age {
			return i
		}
	}
	return -1
}
