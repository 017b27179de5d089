package watch

import (
	"bytes"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// parallelSortRows is the row count from which sortRows sorts in parts on several cores: most of a full sort
// is reading each row's cell (a cache miss or two a row) and parsing it, which parts do side by side.
const parallelSortRows = 8192

// A full sort keys every row once and sorts the keys. The keys hold no pointers: a text key (a text cell's
// natural-order encoding) lies in one byte arena of the part's. So the garbage collector neither scans the
// keys nor slows the sort's moves with write barriers (the sort's own allocations start collections), and a
// part allocates a few times, not once a row. Ties are broken by the rows' Keys, read from the rows only for
// the keys that tie: a column of unique cells (names, IPs) never reads them.

// keyedRow is a row's sort key: its kind and numbers (sortKey's), its text as a span of the part's arena,
// and the row's index in the part's rows.
type keyedRow struct {
	a, b          float64
	text, textEnd uint32
	idx           int32
	kind          uint8
}

// keyedPart is one part of a sort: its rows, their keys and the arena the keys' texts lie in.
type keyedPart struct {
	rows  []*Row
	ks    []keyedRow
	arena []byte
	desc  bool
}

// comparePrimary orders key a of p and key b of q by their values, in the order's direction; 0 for a tie.
func (p *keyedPart) comparePrimary(a, b *keyedRow, q *keyedPart) int {
	c := compareValues(int(a.kind), a.a, a.b, int(b.kind), b.a, b.b)
	if c == 0 {
		c = bytes.Compare(p.arena[a.text:a.textEnd], q.arena[b.text:b.textEnd])
	}
	if p.desc {
		c = -c
	}
	return c
}

// compare orders key a of p and key b of q as rowOrder.compareKeyed orders their rows: ties by Key, ascending.
func (p *keyedPart) compare(a, b *keyedRow, q *keyedPart) int {
	if c := p.comparePrimary(a, b, q); c != 0 {
		return c
	}
	return strings.Compare(p.rows[a.idx].Key, q.rows[b.idx].Key)
}

// sortRows returns rows sorted by order in a new slice, parsing each cell once. Large inputs are cut into one
// part per core (at most 4), each keyed and sorted on a goroutine of its own, then merged.
func sortRows(rows []*Row, order rowOrder) []*Row {
	n := min(runtime.GOMAXPROCS(0), 4, len(rows)/parallelSortRows)
	if n < 2 {
		p := sortKeyed(rows, order)
		return p.merge(nil)
	}
	parts := make([]*keyedPart, n)
	var wg sync.WaitGroup
	for i := range n {
		part := rows[i*len(rows)/n : (i+1)*len(rows)/n]
		wg.Go(func() { parts[i] = sortKeyed(part, order) })
	}
	wg.Wait()
	return parts[0].merge(parts[1:])
}

// merge returns the rows of p and others (each sorted) in one order.
func (p *keyedPart) merge(others []*keyedPart) []*Row {
	parts := append([]*keyedPart{p}, others...)
	total := 0
	for _, q := range parts {
		total += len(q.ks)
	}
	out := make([]*Row, 0, total)
	next := make([]int, len(parts))
	for len(out) < total {
		best := -1
		for i, q := range parts {
			if next[i] == len(q.ks) {
				continue
			}
			if best < 0 || q.compare(&q.ks[next[i]], &parts[best].ks[next[best]], parts[best]) < 0 {
				best = i
			}
		}
		q := parts[best]
		out = append(out, q.rows[q.ks[next[best]].idx])
		next[best]++
	}
	return out
}

// sortKeyed keys rows and sorts them.
func sortKeyed(rows []*Row, order rowOrder) *keyedPart {
	p := &keyedPart{rows: rows, ks: make([]keyedRow, len(rows)), desc: order.desc}
	if order.col >= 0 && !order.age {
		// Two passes, each a loop whose iterations do not wait on one another: reading the rows' cells, then
		// parsing them. Rows and cells lie scattered over the heap, and this lets the processor fetch many at
		// once instead of one row's chain of loads at a time.
		cells := make([]string, len(rows))
		size := 0
		for i, r := range rows {
			cells[i] = order.cell(r)
			size += len(cells[i]) + len(cells[i])/2
		}
		p.arena = make([]byte, 0, size)
		for i := range rows {
			p.add(i, classifyRaw(cells[i], order.typ), nil)
		}
	} else {
		size := 0
		for _, r := range rows {
			size += len(r.Key) + len(r.Key)/2
		}
		p.arena = make([]byte, 0, size)
		for i, r := range rows {
			if order.col < 0 {
				p.add(i, sortKey{kind: kindText}, r)
			} else {
				p.add(i, order.key(r), nil)
			}
		}
	}
	slices.SortFunc(p.ks, func(a, b keyedRow) int { return p.comparePrimary(&a, &b, p) })
	p.breakTies()
	return p
}

// breakTies sorts each run of keys that tie by their rows' Keys.
func (p *keyedPart) breakTies() {
	for i := 0; i < len(p.ks); {
		j := i + 1
		for j < len(p.ks) && p.comparePrimary(&p.ks[i], &p.ks[j], p) == 0 {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(p.ks[i:j], func(a, b keyedRow) int { return strings.Compare(p.rows[a.idx].Key, p.rows[b.idx].Key) })
		}
		i = j
	}
}

// add keys row i by k (a text key holding its text as it is, encoded here); with natural set, the text is
// the natural order's (namespace, then name) of that row instead.
func (p *keyedPart) add(i int, k sortKey, natural *Row) {
	kr := keyedRow{kind: uint8(k.kind), a: k.a, b: k.b, idx: int32(i)}
	kr.text = uint32(len(p.arena))
	switch {
	case natural != nil:
		// key's "namespace key, 0, name key": no key holds a 0 byte, so this orders by namespace, then name.
		p.arena = appendNaturalKey(p.arena, natural.Namespace)
		p.arena = append(p.arena, 0)
		p.arena = appendNaturalKey(p.arena, natural.Name)
	case k.kind == kindText:
		p.arena = appendNaturalKey(p.arena, k.text)
	}
	kr.textEnd = uint32(len(p.arena))
	p.ks[i] = kr
}
