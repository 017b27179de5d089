package ui

import (
	"strings"

	"kscope/columns"
	"kscope/discovery"
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

// openViewed opens spec's table as views.yaml lays it out for res, or as the server gives it when the file has
// no entry for it; it tells whether it pushed the table (false: it said why not).
func (a *App) openViewed(res discovery.Resource, spec watch.Spec, selectKey string) bool {
	view, ok := a.opts.Views.Lookup(res.GVR(), spec.Namespace)
	if !ok {
		return a.openSpec(res, spec, res.Name, selectKey)
	}
	layout := &viewLayout{view: view, ordered: !view.Computed(), sortPending: view.SortColumn != ""}
	if view.Computed() {
		cols, unknown, err := view.ObjectColumns()
		if err != nil {
			a.errorf("views.yaml %s: %s", columns.ResourceKey(res.GVR()), err)
			return a.openSpec(res, spec, res.Name, selectKey)
		}
		spec.Columns = cols
		if len(unknown) > 0 {
			a.message("views.yaml " + columns.ResourceKey(res.GVR()) + ": n/a for " + strings.Join(unknown, ", ") +
				": with JSONPath columns, only NAME, NAMESPACE, AGE and LABELS come from the objects")
		}
	}
	src, err := a.cluster.NewSource(spec)
	if err != nil {
		a.errorf("open %s: %s", res.FullName(), err)
		return false
	}
	t := NewLiveTable(a, res, src, res.Name)
	t.selectKey = selectKey
	t.layout = layout
	a.push(t)
	return true
}

// arrangeColumns applies the table's views.yaml layout, if any, to the columns SetColumns set: the shown
// columns and their order, and the sort it opens with once that column is known.
func (t *LiveTable) arrangeColumns() {
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
