package watch

import (
	"slices"
	"sort"
	"sync"
	"time"
)

// maxSnapshotCaches is how many Queries keep a cached, incrementally patched snapshot.
const maxSnapshotCaches = 4

// snapshotCache is the last snapshot of one Query: all rows sorted, and the filtered ones.
type snapshotCache struct {
	sortColumn int
	descending bool
	filter     string
	columns    uint64 // the converter's columns version the order was built for
	extra      uint64 // the Extra's version when the order reads extra cells, else 0

	order rowOrder
	match Filter
	// ageCell is the Age column's index (-1 for none); when the filter could match an age (agesMatter), rows
	// are matched with their age at now, and every row again when the second changes (agedAt).
	ageCell    int
	agesMatter bool
	now        time.Time
	agedAt     int64
	seq        uint64 // the store's sequence number the snapshot reflects
	sorted     []*Row
	snap       Snapshot
	used       uint64
}

// snapshotter answers Snapshot queries from caches patched with the store's change log, so that one change
// at 50k rows costs a binary search and a copy, not a sort. It is safe for concurrent use.
type snapshotter struct {
	mu     sync.Mutex
	caches []*snapshotCache
	clock  uint64
	// extra is the greatest Extra version a query sorted by; caches sorted by older extra cells are dropped.
	extra uint64
}

// snapshot returns the rows of store for q, ordered by cols (whose version is colsVersion).
func (s *snapshotter) snapshot(store *rowStore, q Query, cols []Column, colsVersion uint64) Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	order := newRowOrder(q, cols)
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	ev := order.extraVersion
	s.extra = max(s.extra, ev)
	c := s.find(order.col, q.Descending, q.Filter.String(), colsVersion, ev)
	if c == nil {
		c = &snapshotCache{sortColumn: order.col, descending: q.Descending, filter: q.Filter.String(),
			columns: colsVersion, extra: ev, order: order, match: q.Filter, ageCell: ageCellOf(cols),
			agesMatter: q.Filter.agesMatter(), now: now, agedAt: now.Unix()}
		if same := s.findOrder(order.col, q.Descending, colsVersion, ev); same != nil {
			// Only the filter is new (a keystroke in the filter bar): reuse that order's sorted rows.
			same.catchUp(store)
			c.seq, c.sorted = same.seq, same.sorted
			c.refilter()
		} else if opposite := s.findOrder(order.col, !q.Descending, colsVersion, ev); opposite != nil {
			// Only the direction is new (the sort key pressed again): reverse that order's rows, O(n).
			opposite.catchUp(store)
			c.seq, c.sorted = opposite.seq, reverseRows(opposite.sorted, order)
			c.refilter()
		} else {
			c.rebuild(store.since(0, false))
		}
		s.add(c)
	} else {
		c.now = now
		c.catchUp(store)
		if c.agesMatter && c.ageCell >= 0 && now.Unix() != c.agedAt {
			c.agedAt = now.Unix() // ages read differently now: which rows match may have changed
			c.refilter()
		}
	}
	s.clock++
	c.used = s.clock
	store.trim(s.prune(c, uint64(store.logBound()/2)))
	return c.snap
}

// prune drops the caches that would otherwise pin the store's change log, and returns the oldest sequence
// number the remaining ones need. c is the cache just brought up to date. Dropped are caches built for other
// column definitions or older extra cells (versions only grow: no query finds them again) and caches more than maxLag changes
// behind c (catching one up would cost about a rebuild, and keeping its changes would grow the log until it
// resets, which makes every cache rebuild). The caller holds s.mu.
func (s *snapshotter) prune(c *snapshotCache, maxLag uint64) uint64 {
	oldest := c.seq
	kept := s.caches[:0]
	for _, o := range s.caches {
		if o != c && (o.columns != c.columns || o.extra != 0 && o.extra < s.extra || o.seq+maxLag < c.seq) {
			continue
		}
		kept = append(kept, o)
		oldest = min(oldest, o.seq)
	}
	clear(s.caches[len(kept):])
	s.caches = kept
	return oldest
}

// reverseRows returns sorted (ordered by order's column in the other direction) in order's direction.
// compareKeyed breaks ties by key ascending in both directions, so rows with equal sort keys are put back in
// ascending key order after the reversal.
func reverseRows(sorted []*Row, order rowOrder) []*Row {
	out := slices.Clone(sorted)
	slices.Reverse(out)
	if order.col < 0 {
		return out // namespace and name: no two rows tie
	}
	keys := make([]sortKey, len(out))
	for i, r := range out {
		keys[i] = order.key(r)
	}
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && keys[j].compare(keys[i]) == 0 {
			j++
		}
		slices.Reverse(out[i:j])
		i = j
	}
	return out
}

// findOrder returns a cache with the given order, whatever its filter.
func (s *snapshotter) findOrder(col int, desc bool, colsVersion, extra uint64) *snapshotCache {
	for _, c := range s.caches {
		if c.sortColumn == col && c.descending == desc && c.columns == colsVersion && c.extra == extra {
			return c
		}
	}
	return nil
}

// catchUp brings the cache up to date with store.
func (c *snapshotCache) catchUp(store *rowStore) {
	d := store.since(c.seq, true)
	if d.full {
		c.rebuild(d)
	} else {
		c.patch(d)
	}
}

func (s *snapshotter) find(col int, desc bool, filter string, colsVersion, extra uint64) *snapshotCache {
	for _, c := range s.caches {
		if c.sortColumn == col && c.descending == desc && c.filter == filter && c.columns == colsVersion &&
			c.extra == extra {
			return c
		}
	}
	return nil
}

// add keeps c, evicting the least recently used cache when full.
func (s *snapshotter) add(c *snapshotCache) {
	if len(s.caches) < maxSnapshotCaches {
		s.caches = append(s.caches, c)
		return
	}
	lru := 0
	for i, o := range s.caches {
		if o.used < s.caches[lru].used {
			lru = i
		}
	}
	s.caches[lru] = c
}

// reset drops every cache (the columns changed or the source stopped).
func (s *snapshotter) reset() {
	s.mu.Lock()
	s.caches = nil
	s.mu.Unlock()
}

// ageCellOf returns the index of the first Age column of cols, or -1.
func ageCellOf(cols []Column) int {
	for i, c := range cols {
		if c.Age {
			return i
		}
	}
	return -1
}

// matches tells whether r passes the cache's filter as the table shows r at c.now.
func (c *snapshotCache) matches(r *Row) bool {
	age := ""
	if c.agesMatter && c.ageCell >= 0 && c.ageCell < len(r.Cells) {
		if r.Created.IsZero() {
			age = r.Cells[c.ageCell] // the table shows the server's text too
		} else {
			age = FormatAge(max(c.now.Sub(r.Created), 0))
		}
	}
	return c.match.MatchShown(r, c.ageCell, age)
}

// inSnapshot tells whether r (a row being replaced or removed) is in the filtered rows: matched against an
// earlier moment, it may no longer match now, so it is looked up rather than matched again.
func (c *snapshotCache) inSnapshot(r *Row) bool {
	if !c.agesMatter || c.ageCell < 0 {
		return c.matches(r)
	}
	i := search(c.snap.Rows, r, c.order)
	return i < len(c.snap.Rows) && c.snap.Rows[i] == r
}

// rebuild sorts and filters all rows.
func (c *snapshotCache) rebuild(d delta) {
	c.seq = d.seq
	c.sorted = sortRows(d.all, c.order)
	c.refilter()
}

func (c *snapshotCache) refilter() {
	rows := c.sorted
	if !c.match.Empty() {
		rows = make([]*Row, 0, len(c.sorted))
		for _, r := range c.sorted {
			if c.matches(r) {
				rows = append(rows, r)
			}
		}
	}
	c.snap = Snapshot{Rows: rows, Total: len(c.sorted)}
}

// patch applies a delta to the sorted and filtered rows, producing new slices (published ones never change).
func (c *snapshotCache) patch(d delta) {
	c.seq = d.seq
	if len(d.removed) == 0 && len(d.current) == 0 {
		return
	}
	inserts := sortRows(d.current, c.order)
	c.sorted = patchRows(c.sorted, d.removed, inserts, c.order)
	if c.match.Empty() {
		c.snap = Snapshot{Rows: c.sorted, Total: len(c.sorted)}
		return
	}
	var rem, ins []*Row
	for _, r := range d.removed {
		if c.inSnapshot(r) {
			rem = append(rem, r)
		}
	}
	for _, r := range inserts {
		if c.matches(r) {
			ins = append(ins, r)
		}
	}
	rows := c.snap.Rows
	if len(rem)+len(ins) > 0 {
		rows = patchRows(rows, rem, ins, c.order)
	}
	c.snap = Snapshot{Rows: rows, Total: len(c.sorted)}
}

// search returns the position of the first row of sorted that orders after r (or at r, if atOrAfter).
func search(sorted []*Row, r *Row, order rowOrder) int {
	k := order.lazyKey(r)
	return sort.Search(len(sorted), func(i int) bool {
		return order.compareLazy(sorted[i], order.lazyKey(sorted[i]), r, k) >= 0
	})
}

// patchRows returns sorted without the rows in removed (those not present are ignored) and with inserts
// (sorted by order) merged in. It costs O(n) copying plus O((removed+inserts)·log n) comparisons.
func patchRows(sorted, removed, inserts []*Row, order rowOrder) []*Row {
	idx := make([]int, 0, len(removed))
	for _, r := range removed {
		if i := search(sorted, r, order); i < len(sorted) && sorted[i] == r {
			idx = append(idx, i)
		}
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	out := make([]*Row, 0, len(sorted)-len(idx)+len(inserts))
	next := 0 // index into idx
	copyRange := func(from, to int) {
		for next < len(idx) && idx[next] < to {
			out = append(out, sorted[from:idx[next]]...)
			from = idx[next] + 1
			next++
		}
		out = append(out, sorted[from:to]...)
	}
	prev := 0
	for _, r := range inserts {
		p := search(sorted, r, order)
		copyRange(prev, p)
		out = append(out, r)
		prev = p
	}
	copyRange(prev, len(sorted))
	return out
}
