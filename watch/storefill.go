package watch

import "maps"

// The store's side of one-namespace views, which list rows without their metadata (includeObject=None) and
// fill it in behind (metadataFill). A metadata-less relist (410 Gone, an apiserver restart) must neither wipe
// the metadata already filled in nor report unchanged rows: the relisted rows are resolved against the rows
// held (relisted), and the list's fill completes what they leave open (fill).

// earlyReset starts a metadata-less list, before the informer delivers its rows: it forgets the rows the
// previous fill listed ahead of the informer (the new list's rows must not take metadata older than it) and
// the rows awaiting verification. It returns the list's generation, which its fill passes to fill.
func (s *rowStore) earlyReset() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	if len(s.early) > 0 {
		s.early = map[string]*Row{}
	}
	if len(s.unverified) > 0 {
		s.unverified = map[string]*Row{}
	}
	return s.gen
}

// relisted resolves r, a row without metadata from a metadata-less list, against old, the row held for its
// key; e is the row the list's fill delivered early for that key, or nil. It returns the row to store (nil:
// keep old, nothing changed) and whether storing it is quiet (not a change to report):
//   - with e, e is stored unless it is the same object version as old, and reported only if its cells (Age
//     aside) or metadata differ from old's;
//   - without e, cells equal to old's but for the Age cell are no change: old is kept, and marked unverified
//     when it has metadata (the fill checks that metadata);
//   - otherwise r is stored and reported, keeping old's UID, labels and exact creation time: its empty
//     ResourceVersion marks it for the fill.
//
// age is the index of the Age cell, or -1. The caller holds s.mu.
func (s *rowStore) relisted(old, r, e *Row, age int) (next *Row, quiet bool) {
	switch {
	case e != nil:
		if old.ResourceVersion == e.ResourceVersion && old.UID == e.UID {
			return nil, false
		}
		return e, !changedSince(old, e, age)
	case sameCells(old.Cells, r.Cells, age):
		if old.ResourceVersion != "" {
			s.unverified[old.Key] = old
		}
		return nil, false
	case old.UID != "":
		c := *r
		c.UID, c.Labels, c.Created = old.UID, old.Labels, old.Created
		return &c, false
	}
	return r, false
}

// fill completes a row with r, the same object listed with its metadata by the fill of the metadata-less list
// of generation gen (earlyReset); a fill of an older list does nothing. It replaces the row held when that
// row lacks its metadata (empty ResourceVersion: listed bare, or relisted with changed cells), quietly; or when
// it is the row a relist kept unverified and r is a newer version, reported only if its cells (Age aside) or
// metadata differ. A row the informer has not delivered yet (absent, or held from before the list) is kept
// until it is (see early). It tells whether the row was replaced.
func (s *rowStore) fill(r *Row, gen uint64) bool {
	if r.ResourceVersion == "" {
		return false
	}
	age := s.ageIndex()
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen != s.gen {
		return false
	}
	h, ok := s.rows[r.Key]
	if !ok {
		s.early[r.Key] = r
		return false
	}
	switch cur := h.get(); {
	case cur.ResourceVersion == "":
		s.replace(h, cur, r, false)
		return true
	case s.unverified[r.Key] == cur:
		delete(s.unverified, r.Key)
		if cur.ResourceVersion == r.ResourceVersion && cur.UID == r.UID {
			return false
		}
		s.replace(h, cur, r, changedSince(cur, r, age))
		return true
	}
	// Held from before the list (its twin is still to come) or updated by the watch since: put takes r in
	// place of a twin only.
	s.early[r.Key] = r
	return false
}

// ageIndex returns the index of the Age cell (ageCell), or -1.
func (s *rowStore) ageIndex() int {
	if s.ageCell == nil {
		return -1
	}
	return s.ageCell()
}

// changedSince tells whether r shows a change from old that a reader sees: a cell other than the Age cell
// (index age), or, when old has metadata, the UID or labels. It is a pure function.
func changedSince(old, r *Row, age int) bool {
	if !sameCells(old.Cells, r.Cells, age) {
		return true
	}
	return old.UID != "" && (old.UID != r.UID || !maps.Equal(old.Labels, r.Labels))
}

// sameCells tells whether a and b are equal but for the cell at index age (-1: all cells count).
func sameCells(a, b []string, age int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if i != age && a[i] != b[i] {
			return false
		}
	}
	return true
}
