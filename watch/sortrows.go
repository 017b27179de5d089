package watch

import (
	"runtime"
	"slices"
	"strings"
	"sync"
)

// parallelSortRows is the row count from which sortRows sorts in parts on several cores: most of a full sort
// is reading each row's cell (a cache miss or two a row) and parsing it, which parts do side by side.
const parallelSortRows = 8192

// keyedRow is a row with its precomputed sort key and its Key (the tie-break), so that comparisons read
// neither the row nor its cells.
type keyedRow struct {
	k   sortKey
	key string
	r   *Row
}

// compareKeyedRows orders a and b as order.compareKeyed does.
func compareKeyedRows(order rowOrder, a, b *keyedRow) int {
	c := a.k.compare(b.k)
	if order.desc {
		c = -c
	}
	if c == 0 {
		c = strings.Compare(a.key, b.key)
	}
	return c
}

// sortRows returns rows sorted by order in a new slice, parsing each cell once. Large inputs are cut into one
// part per core (at most 4), each keyed and sorted on a goroutine of its own, then merged.
func sortRows(rows []*Row, order rowOrder) []*Row {
	parts := min(runtime.GOMAXPROCS(0), 4, len(rows)/parallelSortRows)
	if parts < 2 {
		return flatten(sortKeyed(rows, order))
	}
	sorted := make([][]keyedRow, parts)
	var wg sync.WaitGroup
	for i := range parts {
		part := rows[i*len(rows)/parts : (i+1)*len(rows)/parts]
		wg.Go(func() { sorted[i] = sortKeyed(part, order) })
	}
	wg.Wait()
	for len(sorted) > 1 {
		next := sorted[:0:0]
		for i := 0; i < len(sorted); i += 2 {
			if i+1 == len(sorted) {
				next = append(next, sorted[i])
				continue
			}
			next = append(next, mergeKeyed(sorted[i], sorted[i+1], order))
		}
		sorted = next
	}
	return flatten(sorted[0])
}

// sortKeyed keys rows and sorts them.
func sortKeyed(rows []*Row, order rowOrder) []keyedRow {
	ks := make([]keyedRow, len(rows))
	if order.col >= 0 && !order.age {
		// Two passes, each a loop whose iterations do not wait on one another: reading the rows' cells, then
		// parsing them. Rows and cells lie scattered over the heap, and this lets the processor fetch many at
		// once instead of one row's chain of loads at a time.
		for i, r := range rows {
			ks[i].r, ks[i].key, ks[i].k.text = r, r.Key, order.cell(r)
		}
		for i := range ks {
			ks[i].k = classify(ks[i].k.text, order.typ)
		}
	} else {
		for i, r := range rows {
			ks[i] = keyedRow{k: order.key(r), key: r.Key, r: r}
		}
	}
	slices.SortFunc(ks, func(a, b keyedRow) int { return compareKeyedRows(order, &a, &b) })
	return ks
}

// mergeKeyed merges two sorted runs.
func mergeKeyed(a, b []keyedRow, order rowOrder) []keyedRow {
	out := make([]keyedRow, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if compareKeyedRows(order, &a[i], &b[j]) <= 0 {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// flatten returns the rows of ks in order.
func flatten(ks []keyedRow) []*Row {
	out := make([]*Row, len(ks))
	for i := range ks {
		out[i] = ks[i].r
	}
	return out
}
