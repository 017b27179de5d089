package ui

import (
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// The app's own actions, shared by the views that show one object (a table row, its YAML).

// escape lets the top view use esc (clearing its filter or search), else goes back.
func (a *App) escape() {
	if !a.top().Escape() {
		a.pop()
	}
}

// subjectFunc returns the resource and row the object actions apply to, and whether there is one.
type subjectFunc func() (discovery.Resource, *watch.Row, bool)

// scopeFunc returns, without side effects, the resource and namespace the object keys act in now: what the
// access questions asked before a verb is offered are about.
type scopeFunc func() (discovery.Resource, string)

// objectBindings are the keys that act on one object, the one subject returns: describe, edit, scale (on a
// pod: shell), restart, delete, logs (with a logs screen registered), port-forward (pods, services,
// deployments), owner, events, tree (with a tree screen registered). The writes are asked about in access
// before they are offered. The keys depend on scope's resource, never on the object.
func (a *App) objectBindings(subject subjectFunc, scope scopeFunc, access *accessCache) []keymap.Binding {
	with := func(fn func(discovery.Resource, *watch.Row)) func() {
		return func() {
			if res, row, ok := subject(); ok {
				fn(res, row)
			}
		}
	}
	write := func(v verb) keymap.Binding {
		b := v.key.Bind(with(func(res discovery.Resource, row *watch.Row) { v.run(a, access, res, row) }))
		return b.WithDenied(func() bool {
			res, ns := scope()
			if a.opts.ReadOnly || v.applies(res) != nil {
				return false
			}
			q := v.need.query(res, ns)
			ans, ok := access.known(q)
			if !ok {
				access.ask(q, nil)
			}
			return ok && !ans.Allowed
		})
	}
	res, _ := scope()
	s, r := scaleVerb, restartVerb
	switch {
	case isPods(res):
		s = shellVerb
	case isCronJobs(res):
		s = suspendVerb
	case isNodes(res):
		r = drainVerb
	}
	var keys []keymap.Binding
	if a.opts.Screens.Describe != nil { // a screen of its own package (TableScreens)
		keys = append(keys, keymap.Keys.Object.Describe.Bind(with(a.openDescribe)))
	}
	keys = append(keys,
		write(editVerb),
		write(s),
		write(r),
		write(deleteVerb),
	)
	switch {
	case isNodes(res):
		keys = append(keys, write(cordonVerb), write(uncordonVerb))
	case isCronJobs(res):
		keys = append(keys, write(triggerVerb))
	case isPods(res):
		keys = append(keys, write(killVerb))
	}
	if imageSettable(res) == nil {
		keys = append(keys, write(setImageVerb))
	}
	keys = append(keys, a.rolloutsKeys(res, with)...)
	if open := a.opts.Screens.Logs; open != nil { // a screen of its own package (TableScreens)
		logs := func(previous bool) func(discovery.Resource, *watch.Row) {
			return func(res discovery.Resource, row *watch.Row) { open(a, res, row, previous, a.opts.logSettings()) }
		}
		keys = append(keys, keymap.Keys.Object.Logs.Bind(with(logs(false))),
			keymap.Keys.Object.PrevLogs.Bind(with(logs(true))))
	}
	if forwardable(res) == nil {
		keys = append(keys, write(portForwardVerb))
	}
	keys = append(keys,
		keymap.Keys.Object.Owner.Bind(with(a.jumpToOwner)),
		keymap.Keys.Object.Events.Bind(with(a.openEvents)),
	)
	if a.opts.Screens.Tree != nil { // a screen of its own package (TableScreens)
		keys = append(keys, keymap.Keys.Object.Tree.Bind(with(a.openTree)))
	}
	return keys
}

// openTree pushes the relationship tree of row, an object of res: the screen registered in
// Options.Screens.Tree.
func (a *App) openTree(res discovery.Resource, row *watch.Row) {
	s, err := a.opts.Screens.Tree(a, res, row, a.openYAML, a.resourceForKind)
	if err != nil {
		a.errorf("%s", err)
		return
	}
	a.push(s)
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
	t := a.newTable(res, src, "events("+row.Name+")")
	t.KeepNamespace()
	a.push(t)
}
