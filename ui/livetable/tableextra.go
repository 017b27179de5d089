package livetable

import (
	"slices"

	"kscope/watch"
)

// tableExtra joins the cells of a table's column providers into the one watch.Extra the table shows and
// sorts by, in the providers' order (HEALTH while it is on, then the metrics while they are shown). The
// joined Extra gets a new, greater Version whenever a part changes. UI goroutine only.
type tableExtra struct {
	parts   []*watch.Extra // the parts joined last, one per provider (nil: none)
	joined  *watch.Extra
	version uint64
}

// extra returns the table's own columns and cells (nil for none). UI goroutine.
func (t *Table) extra() *watch.Extra {
	parts := make([]*watch.Extra, len(t.providers))
	for i, p := range t.providers {
		parts[i] = p.cells()
	}
	e := &t.extras
	if slices.Equal(parts, e.parts) {
		return e.joined
	}
	e.parts = parts
	shown := slices.DeleteFunc(slices.Clone(parts), func(p *watch.Extra) bool { return p == nil })
	if len(shown) == 0 {
		e.joined = nil
		return nil
	}
	e.version++
	var next *watch.Extra
	for i := len(shown) - 1; i >= 0; i-- { // each part copied, linked to the next by More
		part := *shown[i]
		part.More = next
		next = &part
	}
	next.Version = e.version
	e.joined = next
	return e.joined
}

// columns returns the table's columns: the server's, then its own (HEALTH, the metrics) while they are
// shown. UI goroutine.
func (t *Table) columns() []watch.Column {
	cols := t.src.Columns()
	if e := t.extra(); e != nil {
		return append(slices.Clip(cols), e.AllColumns()...)
	}
	return cols
}
