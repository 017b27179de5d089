package watch

import (
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Extra is cells a view shows after the server's columns, by row key: figures the Table rows do not carry,
// such as the CPU and memory a metrics poll found. A Query that names an extra column (SortColumn ≥
// len(Source.Columns())) is sorted by these cells in the same snapshot path as the server's columns.
//
// An Extra is immutable once given to a Query and safe to share across goroutines. The view gives every new
// set of cells a greater Version: a snapshot ordered by an extra column is re-sorted when the version
// changes, and snapshots ordered by the server's columns are unaffected by it. Filters match the server's
// cells only.
type Extra struct {
	// Columns describe the extra cells, in order. Type "quantity" marks a Kubernetes quantity as kubectl
	// prints it ("250m", "64Mi"), ordered by its value; the other types order as the server's do.
	Columns []Column
	// Cells holds, per row key, one cell per column; a row with no entry shows, and orders as, empty cells.
	Cells map[string][]string
	// Version identifies these cells; it is never 0 and only grows for one view.
	Version uint64
	// More, when set, holds the cells of further columns, after Columns: another part of the view's own
	// columns with cells of its own (the HEALTH column beside the metrics). Its Version is not read: the
	// view gives the whole a new Version when any part changes.
	More *Extra
}

// AllColumns returns Columns, then those of More and beyond. The slice is new.
func (e *Extra) AllColumns() []Column {
	var out []Column
	for ; e != nil; e = e.More {
		out = append(out, e.Columns...)
	}
	return out
}

// width is the number of columns of e and its More.
func (e *Extra) width() int {
	n := 0
	for ; e != nil; e = e.More {
		n += len(e.Columns)
	}
	return n
}

// column returns extra column i, counted across More.
func (e *Extra) column(i int) Column {
	for i >= len(e.Columns) && e.More != nil {
		i, e = i-len(e.Columns), e.More
	}
	return e.Columns[i]
}

// extraColumn returns the index into AllColumns of query column col, given the n server columns, or -1.
func (e *Extra) extraColumn(col, n int) int {
	if e == nil || col < n || col >= n+e.width() {
		return -1
	}
	return col - n
}

// Cell returns row key's cell in extra column i, counted across More ("" when the row has none).
func (e *Extra) Cell(key string, i int) string {
	for i >= len(e.Columns) && e.More != nil {
		i, e = i-len(e.Columns), e.More
	}
	if cells := e.Cells[key]; i < len(cells) {
		return cells[i]
	}
	return ""
}

// classifyQuantity orders a quantity cell by its value; anything else is text. The forms kubectl top prints
// (whole millicores, whole MiB) are read without resource.ParseQuantity, which would double the cost of a
// sort by such a column at 50k rows.
func classifyQuantity(s string) sortKey {
	if f, ok := topQuantity(s); ok {
		return sortKey{kind: kindNumber, a: f}
	}
	if q, err := resource.ParseQuantity(s); err == nil {
		return sortKey{kind: kindNumber, a: q.AsApproximateFloat64()}
	}
	return sortKey{kind: kindText, text: s} // (classify encodes it)
}

// topQuantity reads "250m" and "64Mi" (digits only) in base units.
func topQuantity(s string) (float64, bool) {
	var digits string
	var scale float64
	switch {
	case strings.HasSuffix(s, "Mi"):
		digits, scale = s[:len(s)-2], 1<<20
	case strings.HasSuffix(s, "m"):
		digits, scale = s[:len(s)-1], 1e-3
	default:
		return 0, false
	}
	if !allDigits(digits) || len(digits) > 15 {
		return 0, false
	}
	f, err := strconv.ParseFloat(digits, 64)
	return f * scale, err == nil
}
