package watch

import "context"

// StaticSource is a row set filled by hand, for tests of code that reads a Source (the UI): Put, Delete,
// SetState and SetColumns stand for the server. It has the methods of *Source that the UI reads (Spec, Start,
// Stop, State, Columns, Notify, Changes, Snapshot, Row) and runs them on the same row store and snapshot code
// as a Source: the same natural and column orders, filters, change marks and coalesced notifications; there
// is no informer and no server. All methods are safe for concurrent use. Start, Stop, Done and Notify are its
// Lifecycle's: Start starts nothing (Done is closed at once), Stop releases the rows.
type StaticSource struct {
	phased
	spec  Spec
	store *rowStore
	snaps snapshotter

	// Guarded by the Lifecycle's mu:
	columns     []Column
	colsVersion uint64
	settled     chan struct{} // closed once started and Synced (Settled)
}

// NewStaticSource returns a synced source for spec with columns and rows. rows are what the first list
// returned: they are not reported by Changes. Rows follow Put's rules.
func NewStaticSource(spec Spec, columns []Column, rows ...*Row) *StaticSource {
	return NewFedSource(spec, columns, Hooks{}, rows...)
}

// NewFedSource is NewStaticSource for a source whose rows others put (package union joins several sources
// into one): feed's Run starts the feeding when the source starts, its goroutines started with its spawn
// (through feed.Go), so that Done waits for them and Stop stops them; feed's Release runs on every Stop once
// they have returned, before the rows are released. One Lifecycle, the source's, runs both.
func NewFedSource(spec Spec, columns []Column, feed Hooks, rows ...*Row) *StaticSource {
	s := &StaticSource{spec: spec, store: newRowStore(), columns: columns, settled: make(chan struct{})}
	s.initLifecycle(Hooks{Go: feed.Go, Run: func(ctx context.Context, spawn func(func())) {
		s.run(ctx, spawn)
		if feed.Run != nil {
			feed.Run(ctx, spawn)
		}
	}, Release: func() {
		if feed.Release != nil {
			feed.Release()
		}
		s.release()
	}}, State{Phase: Synced})
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
		s.Signal()
	}
}

// PutListed is Put for rows of a first list (a union's part listed, as a Source's first list is): stored,
// shown, but not reported by Changes as added or updated. After Stop, PutListed does nothing.
func (s *StaticSource) PutListed(rows ...*Row) {
	if s.Stopped() {
		return
	}
	changed := false
	for _, r := range rows {
		changed = s.store.putListed(keyed(r)) || changed
	}
	if changed {
		s.Signal()
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
		s.Signal()
	}
}

// SetState sets the state State returns, whatever the current one (no state machine), and notifies.
func (s *StaticSource) SetState(st State) {
	s.mu.Lock()
	s.state = st
	s.settleLocked()
	s.mu.Unlock()
	s.Signal()
}

// SetColumns replaces the column definitions, as a server's new Table columns do, and notifies. Cached sort
// orders are rebuilt for the new columns. cols must not be modified afterwards.
func (s *StaticSource) SetColumns(cols []Column) {
	s.mu.Lock()
	s.columns = cols
	s.colsVersion++
	s.mu.Unlock()
	s.Signal()
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

// run is what Start does (Hooks.Run: once, holding s.mu, never after Stop): the source may settle; rows change
// only through Put and Delete, and ctx is not used.
func (s *StaticSource) run(context.Context, func(func())) { s.settleLocked() }

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

// release is what every Stop does after the Lifecycle's (Hooks.Release), as Source.Stop: the state became
// Stopped unless it is terminal; readers are notified even so, and the rows are released (later snapshots are
// empty).
func (s *StaticSource) release() {
	s.Signal()
	s.snaps.reset()
	s.store.clear()
}

// Columns returns the current columns. The slice must not be modified.
func (s *StaticSource) Columns() []Column {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.columns
}

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
