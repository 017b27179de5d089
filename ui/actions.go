package ui

import (
	"kscope/watch"
)

// The key table's actions. Each runs on the UI goroutine and acts on the top view.

// escape clears the filter (or the YAML search), else goes back.
func (a *App) escape() {
	switch v := a.top().(type) {
	case *LiveTable:
		if !v.query.Filter.Empty() {
			q := v.query
			q.Filter = watch.Filter{}
			v.setQuery(q)
			return
		}
	case *ResourcePicker:
		if v.filter != "" {
			v.filter = ""
			v.reload()
		}
		return
	case *YAMLView:
		if v.search != "" {
			v.setSearch("")
			return
		}
	}
	a.pop()
}

// enter opens what is selected: a resource in the picker; a namespace switches to it; any other row: YAML.
func (a *App) enter() {
	switch v := a.top().(type) {
	case *ResourcePicker:
		v.enter()
	case *LiveTable:
		row := v.selectedRow()
		if row == nil {
			return
		}
		if v.res.GVR() == namespacesResource().GVR() {
			a.setNamespace(row.Name)
			if _, ok := a.top().(*ResourcePicker); ok {
				a.command("pods")
			}
			return
		}
		a.openYAML()
	}
}

// openFilterBar asks for a row filter (tables), a resource filter (picker) or a search (YAML).
func (a *App) openFilterBar() {
	switch v := a.top().(type) {
	case *LiveTable:
		a.bar.Open("/", "", func(text string) {
			f, err := watch.ParseFilter(text)
			if err != nil {
				a.errorf("%s", err.Error())
				return
			}
			q := v.query
			q.Filter = f
			v.setQuery(q)
		}, nil)
	case *ResourcePicker:
		a.bar.Open("/", "", func(text string) {
			v.filter = text
			v.reload()
		}, nil)
	case *YAMLView:
		a.bar.Open("/", "", v.setSearch, nil)
	}
}

func (a *App) toggleWide() {
	switch v := a.top().(type) {
	case *LiveTable:
		v.wide = !v.wide
		v.refresh()
	case *ResourcePicker:
		v.wide = !v.wide
		v.reload()
	}
}

// sortBy sorts the top table by column col; the same column again reverses the direction.
func (a *App) sortBy(col func(watch.Column) bool) {
	t, ok := a.top().(*LiveTable)
	if !ok {
		return
	}
	for i, c := range t.src.Columns() {
		if col(c) {
			q := t.query
			if q.SortColumn == i {
				q.Descending = !q.Descending
			} else {
				q.SortColumn, q.Descending = i, false
			}
			t.setQuery(q)
			return
		}
	}
	a.errorf("this table has no such column")
}

func (a *App) sortByName() {
	a.sortBy(func(c watch.Column) bool { return c.Format == "name" || c.Name == "NAME" || c.Name == "Name" })
}

func (a *App) sortByAge() { a.sortBy(func(c watch.Column) bool { return c.Age }) }

// sortNextColumn moves the sort to the next shown column (natural order after the last).
func (a *App) sortNextColumn() {
	t, ok := a.top().(*LiveTable)
	if !ok {
		return
	}
	cols := t.src.Columns()
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

func (a *App) reverseSort() {
	if t, ok := a.top().(*LiveTable); ok && t.query.SortColumn >= 0 {
		q := t.query
		q.Descending = !q.Descending
		t.setQuery(q)
	}
}

// subject returns the resource and row the object actions (yaml, events, owner, delete) apply to.
func (a *App) subject() (*LiveTable, *watch.Row, bool) {
	switch v := a.top().(type) {
	case *LiveTable:
		row := v.selectedRow()
		return v, row, row != nil
	case *YAMLView:
		return v.from, v.row, true
	}
	return nil, nil, false
}

func (a *App) openYAML() {
	t, row, ok := a.subject()
	if !ok {
		return
	}
	if _, isYAML := a.top().(*YAMLView); isYAML {
		return
	}
	a.push(NewYAMLView(a, t, row))
}

// openEvents pushes a live table of the selected object's events.
func (a *App) openEvents() {
	_, row, ok := a.subject()
	if !ok {
		return
	}
	if row.UID == "" {
		a.errorf("%s has no UID to match events with", row.Name)
		return
	}
	res := eventsResource()
	spec := watch.Spec{GVR: res.GVR(), Namespaced: true, Namespace: row.Namespace,
		FieldSelector: "involvedObject.uid=" + string(row.UID)}
	src, err := a.cluster.NewSource(spec)
	if err != nil {
		a.errorf("events of %s: %s", row.Name, err)
		return
	}
	t := NewLiveTable(a, res, src, "events("+row.Name+")")
	t.fixed = true
	a.push(t)
}
