package ui

import (
	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/watch"
)

// The app's own actions, shared by the views that show one object (a table row, its YAML).

// escape lets the top view use esc (clearing its filter or search), else goes back.
func (a *App) escape() {
	if !a.top().escape() {
		a.pop()
	}
}

// subjectFunc returns the resource and row the object actions apply to, and whether there is one.
type subjectFunc func() (discovery.Resource, *watch.Row, bool)

// objectBindings are the keys that act on one object, the one subject returns: events, owner, delete.
func (a *App) objectBindings(subject subjectFunc) []Binding {
	with := func(fn func(discovery.Resource, *watch.Row)) func() {
		return func() {
			if res, row, ok := subject(); ok {
				fn(res, row)
			}
		}
	}
	return []Binding{
		char('e').does("events", "show the selected object's events, live", with(a.openEvents)),
		char('o').does("owner", "jump to the selected object's controller (owner)", with(a.jumpToOwner)),
		key(tcell.KeyCtrlD, "ctrl-d").does("delete", "delete the selected object (asks first; refused in --readonly)", with(a.confirmDelete)),
	}
}

// openYAML pushes the live YAML of row, an object of res.
func (a *App) openYAML(res discovery.Resource, row *watch.Row) {
	a.push(NewYAMLView(a, res, row))
}

// openEvents pushes a live table of row's events.
func (a *App) openEvents(_ discovery.Resource, row *watch.Row) {
	if row.UID == "" {
		a.errorf("%s has no UID to match events with", row.Name)
		return
	}
	res := a.catalogEntry(eventsResource())
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
