package ui

import (
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/verbs"
	"kscope/watch"
)

// The app's own actions, shared by the views that show one object (a table row, its YAML).

// escape lets the top view use esc (clearing its filter or search), else goes back.
func (a *App) escape() {
	if !a.top().Escape() {
		a.pop()
	}
}

// objectBindings are the keys that act on one object, the one subject returns: the object verbs
// (verbs.Verbs.Bindings, asked about in access before they are offered) and the screens of the object that
// are registered (describe, logs: the Roles they play; the registered screens' object keys: ScreenSpec.Objects). The keys depend on scope's resource, never
// on the object.
func (a *App) objectBindings(subject verbs.SubjectFunc, scope verbs.ScopeFunc, access *verbs.Access) []keymap.Binding {
	return a.markedObjectBindings(subject, nil, scope, access)
}

// markedObjectBindings are objectBindings where the verbs that act on several objects act on the rows
// marked returns, when it returns some (a live table's marks).
func (a *App) markedObjectBindings(subject verbs.SubjectFunc, marked verbs.MarkedFunc, scope verbs.ScopeFunc, access *verbs.Access) []keymap.Binding {
	open := verbs.Screens{Events: a.openEvents}
	if a.roles().Describe != nil { // a registered screen's (Roles)
		open.Describe = a.openDescribe
	}
	if logs := a.openLogs(); logs != nil { // a registered screen's (Roles)
		open.Logs = func(res discovery.Resource, row *watch.Row, previous bool) { logs(res, row, previous, "") }
	}
	open.More = a.objectOpeners() // the registered screens' (ScreenSpec.Objects)
	return a.verbs.TableBindings(subject, marked, scope, access, open)
}

// openEvents pushes a live table of row's events.
func (a *App) openEvents(_ discovery.Resource, row *watch.Row) {
	if row.UID == "" {
		a.Errorf("%s has no UID to match events with", row.Name)
		return
	}
	res := a.catalogEntry(eventsResource())
	spec := watch.Spec{GVR: res.GVR(), Namespaced: true, Namespace: row.Namespace,
		FieldSelector: "involvedObject.uid=" + string(row.UID)}
	src, err := a.cluster.NewSource(spec)
	if err != nil {
		a.Errorf("events of %s: %s", row.Name, err)
		return
	}
	t := a.newTable(res, src, "events("+row.Name+")")
	t.KeepNamespace()
	a.Push(t)
}
