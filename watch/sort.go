package watch

import (
	"cmp"
	"strconv"
	"strings"
)

// rowOrder orders rows for one Query: by a column, type-aware, ascending or descending, ties broken by key
// (always ascending) so that the order is total and stable. Column -1 orders by namespace, then name.
type rowOrder struct {
	col  int
	desc bool
	age  bool   // the column shows the object's age: order by creation time
	typ  string // the column's Type
	// extra is set when col is one of the view's extra columns (extraCol indexes them); extraVersion is then
	// its Version, else 0.
	extra        *Extra
	extraCol     int
	extraVersion uint64
}

func newRowOrder(q Query, cols []Column) rowOrder {
	o := rowOrder{col: q.SortColumn, desc: q.Descending}
	if i := q.Extra.extraColumn(o.col, len(cols)); i >= 0 {
		o.extra, o.extraCol, o.extraVersion = q.Extra, i, q.Extra.Version
		o.typ = q.Extra.column(i).Type
		return o
	}
	if o.col < 0 || o.col >= len(cols) {
		o.col = -1
		return o
	}
	o.age, o.typ = cols[o.col].Age, cols[o.col].Type
	return o
}

// cell returns the row's text in the order's column.
func (o rowOrder) cell(r *Row) string {
	if o.extra != nil {
		return o.extra.Cell(r.Key, o.extraCol)
	}
	if o.col < len(r.Cells) {
		return r.Cells[o.col]
	}
	return ""
}

// key computes the sort key of a row once, so a full sort does not re-parse cells.
func (o rowOrder) key(r *Row) sortKey {
	switch {
	case o.col < 0:
		return sortKey{kind: kindText, text: naturalKey(r.Namespace) + "\x00" + naturalKey(r.Name)}
	case o.age:
		// Younger objects have smaller ages: order by creation time, newest first.
		return sortKey{kind: kindNumber, a: -float64(r.Created.UnixNano())}
	}
	return classify(o.cell(r), o.typ)
}

// compare orders a before b (negative), after (positive); equal only for the same key.
func (o rowOrder) compare(a, b *Row) int {
	return o.compareKeyed(a, o.key(a), b, o.key(b))
}

func (o rowOrder) compareKeyed(a *Row, ka sortKey, b *Row, kb sortKey) int {
	c := ka.compare(kb)
	if o.desc {
		c = -c
	}
	if c == 0 {
		c = strings.Compare(a.Key, b.Key)
	}
	return c
}

// lazyKey is key with a text cell's key holding the cell itself rather than its encoding, so that it does not
// allocate; compareLazy orders rows by lazy keys exactly as compareKeyed orders them by keys. A search, which
// keys every row it passes, uses them.
func (o rowOrder) lazyKey(r *Row) sortKey {
	switch {
	case o.col < 0:
		return sortKey{} // (compareLazy reads the namespace and name)
	case o.age:
		return o.key(r)
	}
	return classifyRaw(o.cell(r), o.typ)
}

// compareLazy is compareKeyed for keys from lazyKey.
func (o rowOrder) compareLazy(a *Row, ka sortKey, b *Row, kb sortKey) int {
	var c int
	switch {
	case o.col < 0:
		// key's namespace key, "\x00", name key: no key holds a 0 byte, so this is namespace, then name.
		if c = compareNatural(a.Namespace, b.Namespace); c == 0 {
			c = compareNatural(a.Name, b.Name)
		}
	case ka.kind == kindText && kb.kind == kindText:
		c = compareNatural(ka.text, kb.text)
	default:
		c = ka.compare(kb)
	}
	if o.desc {
		c = -c
	}
	if c == 0 {
		c = strings.Compare(a.Key, b.Key)
	}
	return c
}

// Kinds of cell values, in the order they sort among each other.
const (
	kindNumber   = iota // integers, numbers, creation times
	kindRatio           // "1/3"
	kindDuration        // "5m", "3d4h" (kubectl's age format)
	kindText            // anything else, in natural order
)

// sortKey is a cell's parsed value.
type sortKey struct {
	kind int
	a, b float64
	text string
}

func (k sortKey) compare(o sortKey) int {
	if c := compareValues(k.kind, k.a, k.b, o.kind, o.a, o.b); c != 0 {
		return c
	}
	return strings.Compare(k.text, o.text)
}

// compareValues orders two sort keys by kind, then by the numbers of their kind (a for numbers and
// durations; a, then b, for ratios); 0 leaves the order to their texts. sortKey and keyedRow (which holds its
// text elsewhere) both compare through it.
func compareValues(kind int, a, b float64, oKind int, oa, ob float64) int {
	if c := cmp.Compare(kind, oKind); c != 0 {
		return c
	}
	switch kind {
	case kindNumber, kindDuration:
		return cmp.Compare(a, oa)
	case kindRatio:
		if c := cmp.Compare(a, oa); c != 0 {
			return c
		}
		return cmp.Compare(b, ob)
	}
	return 0
}

// classify parses a cell according to its column type: integer and number columns as numbers, date columns as
// ages, string columns as ratios or ages when the cell looks like one. Anything else is text, keyed by its
// natural-order encoding (naturalKey).
func classify(s, typ string) sortKey {
	k := classifyRaw(s, typ)
	if k.kind == kindText {
		k.text = naturalKey(k.text)
	}
	return k
}

// classifyRaw is classify with text keys holding the cell itself rather than its encoding; it does not
// allocate (but for quantity cells in forms other than kubectl top's).
func classifyRaw(s, typ string) sortKey {
	switch typ {
	case "quantity":
		return classifyQuantity(s)
	case "integer", "number":
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return sortKey{kind: kindNumber, a: f}
		}
	case "date":
		if d, ok := parseAge(s); ok {
			return sortKey{kind: kindDuration, a: d}
		}
	default:
		if n, d, ok := parseRatio(s); ok {
			// By fraction (less ready first), then by total.
			f := 1.0
			if d > 0 {
				f = n / d
			}
			return sortKey{kind: kindRatio, a: f, b: d}
		}
		if d, ok := parseAge(s); ok {
			return sortKey{kind: kindDuration, a: d}
		}
	}
	return sortKey{kind: kindText, text: s}
}

// parseRatio parses "n/d" with decimal digits on both sides.
func parseRatio(s string) (n, d float64, ok bool) {
	i := strings.IndexByte(s, '/')
	if i <= 0 || i == len(s)-1 || !allDigits(s[:i]) || !allDigits(s[i+1:]) {
		return 0, 0, false
	}
	a, err1 := strconv.ParseFloat(s[:i], 64)
	b, err2 := strconv.ParseFloat(s[i+1:], 64)
	return a, b, err1 == nil && err2 == nil
}

// parseAge parses kubectl's age format (duration.HumanDuration: "45s", "5m10s", "3h", "2d4h", "1y30d") into
// seconds.
func parseAge(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	var total float64
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) {
			return 0, false
		}
		n, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return 0, false
		}
		var unit float64
		switch s[i] {
		case 's':
			unit = 1
		case 'm':
			unit = 60
		case 'h':
			unit = 3600
		case 'd':
			unit = 86400
		case 'y':
			unit = 365 * 86400
		default:
			return 0, false
		}
		total += n * unit
		s = s[i+1:]
	}
	return total, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
