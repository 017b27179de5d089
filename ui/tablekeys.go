package ui

import (
	"kscope/discovery"
	"kscope/watch"
)

// Bindings are the live table's keys: filter, sort, wide, namespaces and the selected object's actions.
func (t *LiveTable) Bindings() []Binding {
	a := t.app
	keys := []Binding{
		a.HelpBinding(),
		Keys.Table.Filter.Bind(t.openFilterBar),
		Keys.Table.Open.Bind(t.enter),
	}
	if a.opts.Screens.YAML != nil { // a screen of its own package (TableScreens)
		keys = append(keys, Keys.Table.YAML.Bind(t.withSelected(a.openYAML)))
	}
	if a.opts.Screens.History != nil { // a screen of its own package (TableScreens)
		keys = append(keys, Keys.Table.History.Bind(t.withSelected(a.openHistory)))
	}
	keys = append(keys,
		Keys.Table.Copy.Bind(t.withSelected(func(_ discovery.Resource, row *watch.Row) {
			a.CopyToClipboard("name "+row.Name, row.Name)
		})),
	)
	keys = append(keys, a.objectBindings(t.subject, t.scope, t.access)...)
	keys = append(keys,
		Keys.Table.Save.Bind(t.exportTable),
		Keys.Table.Wide.Bind(t.toggleWide),
		Keys.Table.SortName.Bind(t.sortByName),
		Keys.Table.SortAge.Bind(t.sortByAge),
		Keys.Table.SortNext.Bind(t.sortNextColumn),
		Keys.Table.Reverse.Bind(t.reverseSort),
		Keys.Table.AllNamespaces.Bind(func() { a.setNamespace("") }),
	)
	keys = append(keys, t.providerBindings()...)
	if open := a.opts.Screens.Pulse; open != nil { // a screen of its own package (TableScreens)
		keys = append(keys, Keys.Table.Pulse.Bind(func() { a.push(open(a, t.title, t.src)) }))
	}
	keys = append(keys, a.historyBindings()...)
	return append(keys, a.QuitBinding())
}

// subject is the selected row, for the object actions; a row already deleted (dimmed) offers none.
func (t *LiveTable) subject() (discovery.Resource, *watch.Row, bool) {
	r, _ := t.table.GetSelection()
	row, ghost := t.content.RowAt(r)
	if row != nil && ghost {
		t.app.errorf("%s was deleted", row.Name)
		return t.res, nil, false
	}
	res, row := t.rowKind(row)
	return res, row, row != nil
}

// scope is the table's resource and the namespace its verbs act in: the table's, else the selected row's.
func (t *LiveTable) scope() (discovery.Resource, string) {
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

// withSelected runs fn on the selected row, if there is one.
func (t *LiveTable) withSelected(fn func(discovery.Resource, *watch.Row)) func() {
	return func() {
		if res, row, ok := t.subject(); ok {
			fn(res, row)
		}
	}
}

// Escape clears the filter.
func (t *LiveTable) Escape() bool {
	if t.query.Filter.Empty() {
		return false
	}
	q := t.query
	q.Filter = watch.Filter{}
	t.setQuery(q)
	return true
}

// enter drills down into the selected object (drillDown), else opens its YAML; on a namespace it switches to
// that namespace (enterNamespace).
func (t *LiveTable) enter() {
	res, row, ok := t.subject()
	if !ok {
		return
	}
	if !t.picksNamespace() {
		if !t.app.drillDown(res, row) {
			t.app.openYAML(res, row)
		}
		return
	}
	t.app.enterNamespace(row.Name)
}

// picksNamespace tells whether the table lists namespaces (Enter switches to one).
func (t *LiveTable) picksNamespace() bool { return t.res.GVR() == namespacesResource().GVR() }

// NamespaceChanged follows a namespace switch: the namespace list gives way to the view below it, and a
// namespaced table (not one object's events) reopens in the new namespace.
func (t *LiveTable) NamespaceChanged(ns string) {
	switch {
	case t.picksNamespace() && len(t.app.stack) > 1:
		t.app.pop()
		t.app.top().NamespaceChanged(ns)
	case t.res.Namespaced && !t.fixed:
		t.setNamespace(ns)
	}
}

func (t *LiveTable) openFilterBar() {
	t.app.bar.Open("/", "", func(text string) {
		f, err := watch.ParseFilter(text)
		if err != nil {
			t.app.errorf("%s", err.Error())
			return
		}
		q := t.query
		q.Filter = f
		t.setQuery(q)
	}, nil)
}

func (t *LiveTable) toggleWide() {
	t.wide = !t.wide
	t.refresh()
}

// sortBy sorts by the first column col accepts; the same column again reverses the direction.
func (t *LiveTable) sortBy(col func(watch.Column) bool) {
	for i, c := range t.src.Columns() {
		if col(c) {
			t.sortByColumn(i)
			return
		}
	}
	t.app.errorf("this table has no such column")
}

// sortByColumn sorts by column i (an index into the columns); the same column again reverses the direction.
func (t *LiveTable) sortByColumn(i int) {
	q := t.query
	if q.SortColumn == i {
		q.Descending = !q.Descending
	} else {
		q.SortColumn, q.Descending = i, false
	}
	t.setQuery(q)
}

func (t *LiveTable) sortByName() {
	t.sortBy(func(c watch.Column) bool { return c.Format == "name" || c.Name == "NAME" || c.Name == "Name" })
}

func (t *LiveTable) sortByAge() { t.sortBy(func(c watch.Column) bool { return c.Age }) }

// sortNextColumn moves the sort to the next shown column (natural order after the last).
func (t *LiveTable) sortNextColumn() {
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

func (t *LiveTable) reverseSort() {
	if t.query.SortColumn >= 0 {
		q := t.query
		q.Descending = !q.Descending
		t.setQuery(q)
	}
}
