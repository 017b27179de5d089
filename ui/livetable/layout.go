package livetable

import (
	"strings"

	"kscope/columns"
	"kscope/watch"
)

// viewLayout is what a views.yaml entry does to a table: which columns show, in which order, and the sort the
// table opens with. A table of the server's columns shows the ones the entry names in its order, and in wide
// mode the rest after them, as k9s does; a table of columns computed from the objects has its columns from the
// entry already, and only takes the sort. Used on the UI goroutine only.
type viewLayout struct {
	view columns.View
	// ordered: the entry picks and orders server columns (a Table source); false for computed columns.
	ordered bool
	// sortPending: the sort column is still to be found (the server's columns arrive with the first rows).
	sortPending bool
}

// SetLayout lays the table out as view, a views.yaml entry, says: the columns shown and their order (for a
// table of the server's columns; computed columns come from the entry already, through the source's spec),
// and the sort it opens with, once that column is known. Call it before the table is first shown.
func (t *Table) SetLayout(view columns.View) {
	t.layout = &viewLayout{view: view, ordered: !view.Computed(), sortPending: view.SortColumn != ""}
}

// arrangeColumns applies the table's views.yaml layout, if any, to the columns SetColumns set: the shown
// columns and their order, and the sort it opens with once that column is known.
func (t *Table) arrangeColumns() {
	l := t.layout
	if l == nil {
		return
	}
	cols := t.columns()
	if l.sortPending && len(cols) > 0 {
		l.sortPending = false
		for i, c := range cols {
			if strings.EqualFold(c.Name, l.view.SortColumn) {
				t.query.SortColumn, t.query.Descending = i, l.view.Descending
				break
			}
		}
	}
	if l.ordered {
		t.content.visible = orderedColumns(cols, l.view.Columns, t.wide)
	}
}

// orderedColumns returns the indexes of cols to show for a view's columns: those it names (by name, in any
// case), in its order, wide ones only when wide, hidden ones never; when wide, the rest after them.
func orderedColumns(cols []watch.Column, view []columns.ViewColumn, wide bool) []int {
	var out []int
	named := make(map[int]bool, len(view))
	for _, vc := range view {
		for i, c := range cols {
			if named[i] || !strings.EqualFold(c.Name, vc.Name) {
				continue
			}
			named[i] = true
			if !vc.Hide && (wide || !vc.Wide) {
				out = append(out, i)
			}
			break
		}
	}
	if wide {
		for i := range cols {
			if !named[i] {
				out = append(out, i)
			}
		}
	}
	return out
}
