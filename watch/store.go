package watch

import (
	"sort"
	"sync"
)

// change is one entry of the store's change log: old is nil for an addition, new is nil for a deletion.
type change struct {
	old, new *Row
}

// rowStore is the Source's view of the informer's rows: the current row per key, a coalesced change feed for
// Changes, and a log of recent changes that lets cached snapshots be patched instead of rebuilt.
// It is safe for concurrent use; its methods never block for long (no sorting under its lock).
//
// The store keeps no rows of its own: each key's holder is the object the informer last delivered for it
// (the one its indexer holds), and the row the store settles on (a relist's kept row, the fill's) is put into
// that holder, so that one row is held per object.
type rowStore struct {
	mu   sync.Mutex
	rows map[string]*rowObject
	// seq counts every change; log holds the changes numbered logBase+1 … seq while keepLog is set.
	seq     uint64
	logBase uint64
	log     []change
	keepLog bool

	// added, updated and deleted are the change feed, drained by drain. While feedOff is set (a Source whose
	// Changes has never been called) the feed is not kept: a source read only through snapshots must not hold
	// every deleted row for the session. Once kept, it holds at most one entry per key the store held since
	// the previous drain.
	feedOff bool
	added   map[string]struct{}
	updated map[string]struct{}
	deleted map[string]*Row

	// ageCell, if set, returns the index of the Age cell in rows' cells, or -1: the one cell of a row that a
	// metadata-less relist may change although the object did not (the server prints AGE from its clock).
	// It must not call into the store.
	ageCell func() int
	// gen counts metadata-less lists (earlyReset); a metadata fill completes only the rows of the latest.
	gen uint64
	// early holds rows that the metadata fill listed before the informer delivered the metadata-less row of the
	// same key: the fill's list races with the informer's own delivery of the list it completes. put takes the
	// early row in place of the metadata-less one. Emptied at every metadata-less list (earlyReset).
	early map[string]*Row
	// unverified holds the rows that a metadata-less list found with the same cells, kept with the metadata
	// filled before that list (which may since have changed: labels, a re-created object): the list's fill
	// replaces each if it is still the row held. Emptied at every metadata-less list.
	unverified map[string]*Row
	// history keeps the versions of the rows changes replaced (rowhistory.go).
	history rowHistory
}

// newRowStore returns an empty store whose change feed is kept from the start (StaticSource's: its Puts stand
// for changes after a list the reader has seen).
func newRowStore() *rowStore {
	return &rowStore{
		rows:       map[string]*rowObject{},
		added:      map[string]struct{}{},
		updated:    map[string]struct{}{},
		deleted:    map[string]*Row{},
		early:      map[string]*Row{},
		unverified: map[string]*Row{},
	}
}

// newSourceStore returns an empty store whose change feed is kept only from the first drain on (a Source's).
func newSourceStore() *rowStore {
	s := newRowStore()
	s.feedOff = true
	return s
}

// maxLog bounds the change log; past it, cached snapshots are rebuilt rather than patched. The caller holds
// s.mu.
func (s *rowStore) maxLog() int { return max(4096, len(s.rows)/4) }

// logBound returns maxLog.
func (s *rowStore) logBound() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxLog()
}

// put adds or replaces the row with r.Key, reporting it in the change feed. It tells whether anything
// changed. A row without metadata (ResourceVersion "", from a metadata-less list) is resolved against the
// row held for its key by relisted: it may take its filled twin, or the metadata already held.
func (s *rowStore) put(r *Row) bool { return s.putObject(newRowObject(r, nil), true) }

// putListed is put for a row of the first list: the rows the table opens with are stored (and logged for
// snapshots) but not reported as changes.
func (s *rowStore) putListed(r *Row) bool { return s.putObject(newRowObject(r, nil), false) }

// putObject is put (report) or putListed for the row o holds, and makes o the key's holder: o ends holding
// the row the store settled on, which may be the row held before (unchanged cells) or the fill's.
func (s *rowStore) putObject(o *rowObject, report bool) bool {
	r := o.get()
	age := -1
	if r.ResourceVersion == "" {
		age = s.ageIndex() // before the lock: ageCell takes the converter's
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, early := s.early[r.Key]
	delete(s.early, r.Key)
	var old *Row
	if h := s.rows[r.Key]; h != nil {
		old = h.get()
	}
	s.rows[r.Key] = o
	if r.ResourceVersion == "" && old != nil {
		next, quiet := s.relisted(old, r, e, age)
		if next == nil {
			o.row.Store(old)
			return false
		}
		s.replace(o, old, next, report && !quiet)
		return true
	}
	if r.ResourceVersion == "" && early {
		r = e
	}
	if old == r || (old != nil && old.ResourceVersion == r.ResourceVersion && old.UID == r.UID &&
		r.ResourceVersion != "" && len(old.Cells) == len(r.Cells)) {
		o.row.Store(old)
		return false
	}
	s.replace(o, old, r, report)
	return true
}

// replace makes h, the holder of r.Key, hold r in place of old (nil for none), logs the change for snapshots
// and, if report, puts it in the change feed. The caller holds s.mu.
func (s *rowStore) replace(h *rowObject, old, r *Row, report bool) {
	h.row.Store(r)
	delete(s.unverified, r.Key)
	s.record(change{old: old, new: r})
	if report {
		s.history.add(old, r)
	}
	if !report || s.feedOff {
		return
	}
	if old == nil {
		if _, gone := s.deleted[r.Key]; gone {
			delete(s.deleted, r.Key)
			s.updated[r.Key] = struct{}{}
		} else {
			s.added[r.Key] = struct{}{}
		}
	} else if _, isNew := s.added[r.Key]; !isNew {
		s.updated[r.Key] = struct{}{}
	}
}

// remove deletes the row with key; last is the deleted object's final row as the informer knew it, reported
// in the change feed unless it lacks the metadata of the row held.
func (s *rowStore) remove(key string, last *Row) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.early, key)
	delete(s.unverified, key)
	h, ok := s.rows[key]
	if !ok {
		return false
	}
	old := h.get()
	delete(s.rows, key)
	s.record(change{old: old})
	if s.feedOff {
		return true
	}
	if _, isNew := s.added[key]; isNew {
		delete(s.added, key) // never shown: nothing to report
		return true
	}
	delete(s.updated, key)
	if last == nil || (last.UID == "" && old.UID != "") {
		last = old // (the informer's last row of a relist's deletion may lack the metadata filled in since)
	}
	s.deleted[key] = last
	return true
}

// keysNotIn returns the keys of the rows held that keep lacks.
func (s *rowStore) keysNotIn(keep map[string]struct{}) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var gone []string
	for k := range s.rows {
		if _, ok := keep[k]; !ok {
			gone = append(gone, k)
		}
	}
	return gone
}

// record appends to the change log; the caller holds s.mu.
func (s *rowStore) record(c change) {
	s.seq++
	if !s.keepLog {
		s.logBase = s.seq
		return
	}
	if len(s.log) >= s.maxLog() {
		s.log = nil
		s.logBase = s.seq
		return
	}
	s.log = append(s.log, c)
}

// get returns the row with key.
func (s *rowStore) get(key string) (*Row, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.rows[key]
	if !ok {
		return nil, false
	}
	return h.get(), true
}

// len returns the number of rows.
func (s *rowStore) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.rows)
}

// drain returns and resets the change feed, which is kept from then on. Keys are sorted for a deterministic
// order.
func (s *rowStore) drain() ChangeSet {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.feedOff = false
	var cs ChangeSet
	if len(s.added) > 0 {
		cs.Added = sortedKeys(s.added)
		s.added = map[string]struct{}{}
	}
	if len(s.updated) > 0 {
		cs.Updated = sortedKeys(s.updated)
		s.updated = map[string]struct{}{}
	}
	if len(s.deleted) > 0 {
		cs.Deleted = make([]*Row, 0, len(s.deleted))
		for _, r := range s.deleted {
			cs.Deleted = append(cs.Deleted, r)
		}
		sort.Slice(cs.Deleted, func(i, j int) bool { return cs.Deleted[i].Key < cs.Deleted[j].Key })
		s.deleted = map[string]*Row{}
	}
	return cs
}

func sortedKeys(m map[string]struct{}) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// delta is what a snapshot cache built at sequence since needs to catch up: either all rows (full) or the rows
// removed and the current rows of the keys changed since then.
type delta struct {
	seq     uint64
	full    bool
	all     []*Row
	removed []*Row
	current []*Row
}

// since returns the changes after sequence number from; when they are no longer logged it returns all rows.
// It turns the log on, so that the next call can be answered with a patch.
func (s *rowStore) since(from uint64, have bool) delta {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := delta{seq: s.seq}
	if !have || !s.keepLog || from < s.logBase || from > s.seq {
		s.keepLog = true
		d.full = true
		d.all = make([]*Row, 0, len(s.rows))
		for _, h := range s.rows {
			d.all = append(d.all, h.get())
		}
		return d
	}
	pending := s.log[from-s.logBase:]
	seen := make(map[string]struct{}, len(pending))
	for _, c := range pending {
		if c.old != nil {
			d.removed = append(d.removed, c.old)
		}
		key := ""
		if c.new != nil {
			key = c.new.Key
		} else {
			key = c.old.Key
		}
		if _, dup := seen[key]; dup {
			continue
		}
		seen[key] = struct{}{}
		if h, ok := s.rows[key]; ok {
			d.current = append(d.current, h.get())
		}
	}
	return d
}

// trim drops log entries at or before sequence number upTo (no cached snapshot needs them any more).
func (s *rowStore) trim(upTo uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if upTo <= s.logBase {
		return
	}
	n := int(min(upTo-s.logBase, uint64(len(s.log))))
	s.log = append([]change(nil), s.log[n:]...)
	s.logBase += uint64(n)
}

// clear drops every row, the change feed and the log.
func (s *rowStore) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows = map[string]*rowObject{}
	s.added = map[string]struct{}{}
	s.updated = map[string]struct{}{}
	s.deleted = map[string]*Row{}
	s.early = map[string]*Row{}
	s.unverified = map[string]*Row{}
	s.history.reset()
	s.seq++
	s.log, s.logBase, s.keepLog = nil, s.seq, false
}
