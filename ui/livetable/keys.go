package livetable

import (
	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// Bindings are the table's keys as its host composes them (Host.Bindings): the table's own (FilterBinding,
// OpenBinding, ViewBindings, ColumnBindings) among the app's (help, the object's verbs, the screens it opens).
func (t *Table) Bindings() []keymap.Binding { return t.host.Bindings() }

// FilterBinding is `/`: filter the rows (a regular expression, or -l and a label selector).
func (t *Table) FilterBinding() keymap.Binding { return keymap.Keys.Table.Filter.Bind(t.openFilterBar) }

// OpenBinding is enter: the selected live row goes to Host.Open.
func (t *Table) OpenBinding() keymap.Binding { return keymap.Keys.Table.Open.Bind(t.enter) }

// ViewBindings are the keys that change how the table shows its rows: save them to a file, wide columns,
// the sorts, the fault filter.
func (t *Table) ViewBindings() []keymap.Binding {
	return []keymap.Binding{
		keymap.Keys.Table.Save.Bind(t.exportTable),
		keymap.Keys.Table.Wide.Bind(t.toggleWide),
		keymap.Keys.Table.SortName.Bind(t.sortByName),
		keymap.Keys.Table.SortAge.Bind(t.sortByAge),
		keymap.Keys.Table.SortNext.Bind(t.sortNextColumn),
		keymap.Keys.Table.Reverse.Bind(t.reverseSort),
		keymap.Keys.Table.Faults.Bind(t.faults.toggle),
	}
}

// Subject is the selected row and its resource (the row's own kind in a table of several), for the object
// actions; a row already deleted (dimmed) offers none (the prompt line says so), nor does an empty table.
func (t *Table) Subject() (discovery.Resource, *watch.Row, bool) {
	r, _ := t.table.GetSelection()
	row, ghost := t.content.RowAt(r)
	if row != nil && ghost {
		t.host.Errorf("%s was deleted", row.Name)
		return t.res, nil, false
	}
	res, row := t.rowKind(row)
	return res, row, row != nil
}

// Scope is the table's resource and the namespace its verbs act in: the table's, else the selected row's (in a
// table of several kinds, the selected row's kind).
func (t *Table) Scope() (discovery.Resource, string) {
	if res, ns, ok := t.kindsScope(); ok {
		return res, ns
	}
	if ns := t.src.Spec().Namespace; ns != "" || !t.res.Namespaced {
		return t.res, ns
	}
	r, _ := t.table.GetSelection()
	if row, _ := t.content.RowAt(r); row != nil {
		return t.res, row.Namespace
	}
	return t.res, ""
}

// Escape clears the filter.
func (t *Table) Escape() bool {
	if t.query.Filter.Empty() {
		return false
	}
	q := t.query
	q.Filter = watch.Filter{}
	t.setQuery(q)
	return true
}

// enter hands the selected live row to the host (Host.Open).
func (t *Table) enter() {
	if res, row, ok := t.Subject(); ok {
		t.host.Open(res, row)
	}
}

// NamespaceChanged follows a namespace switch: the host's part first (the namespace list gives way to the view
// below it), else a namespaced table (not one kept in its namespace) reopens in the new namespace.
func (t *Table) NamespaceChanged(ns string) {
	if t.host.NamespaceChanged(ns) {
		return
	}
	if t.res.Namespaced && !t.fixed {
		t.setNamespace(ns)
	}
}

// Typed: a key no binding took goes to the widget (scrolling).
func (t *Table) Typed(*tcell.EventKey) bool { return false }

func (t *Table) openFilterBar() {
	t.host.Ask("/", "", func(text string) {
		f, err := watch.ParseFilter(text)
		if err != nil {
			t.host.Errorf("%s", err.Error())
			return
		}
		q := t.query
		q.Filter = f
		t.setQuery(q)
	})
}

func (t *Table) toggleWide() {
	t.wide = !t.wide
	t.refresh()
}

// sortBy sorts by the first column col accepts; the same column again reverses the direction.
func (t *Table) sortBy(col func(watch.Column) bool) {
	for i, c := range t.src.Columns() {
		if col(c) {
			t.sortByColumn(i)
			return
		}
	}
	t.host.Errorf("this table has no such column")
}

// sortByColumn sorts by column i (an index into the columns); the same column again reverses the direction.
func (t *Table) sortByColumn(i int) {
	q := t.query
	if q.SortColumn == i {
		q.Descending = !q.Descending
	} else {
		q.SortColumn, q.Descending = i, false
	}
	t.setQuery(q)
}

func (t *Table) sortByName() {
	t.sortBy(func(c watch.Column) bool { return c.Format == "name" || c.Name == "NAME" || c.Name == "Name" })
}

func (t *Table) sortByAge() { t.sortBy(func(c watch.Column) bool { return c.Age }) }

// sortNextColumn moves the sort to the next shown column (natural order after the last).
func (t *Table) sortNextColumn() {
	cols := t.columns()
	q := t.query
	q.Descending = false
	for i := q.SortColumn + 1; ; i++ {
		if i >= len(cols) {
			q.SortColumn = -1
			break
		}
		if t.wide || cols[i].Priority == 0 {
			q.SortColumn = i
			break
		}
	}
	t.setQuery(q)
}

func (t *Table) reverseSort() {
	if t.query.SortColumn >= 0 {
		q := t.query
		q.Descending = !q.Descending
		t.setQuery(q)
	}
}
