package ui

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/verbs"
	"kscope/watch"
)

// ObjectView is what ui hands a screen showing one object (TableScreens.YAML, Describe): the object keys with
// their access checks and refusals, the openers of the screens it leads to, and the recording of the
// object's versions. A plain value made for one screen; its funcs run on the UI goroutine, but for Record.
type ObjectView struct {
	// Keys are the object keys (keymap.Keys.Object: describe, edit, scale or shell, restart, delete, logs,
	// port-forward, owner, events, tree; each only where it applies or is registered), with the access
	// questions that offer the writes (one cache for the screen's life) and read-only mode's refusals. shown,
	// asked when a key is pressed, is the UID of the object the screen shows ("" while unknown: the row's)
	// and whether it was deleted: then the key does nothing but say so in one line. The keys depend on the
	// resource only, so Bindings may call Keys each time.
	Keys func(shown func() (uid types.UID, deleted bool)) []keymap.Binding
	// History opens the versions kscope keeps of the object (keymap.Keys.YAML.History); nil when no history screen
	// is registered.
	History func()
	// Blame opens the field managers of each YAML line of obj, the object as shown (nil: not yet read; it
	// then says so); nil when no blame screen is registered.
	Blame func(obj *unstructured.Unstructured)
	// YAML opens the YAML view of the object (keymap.Keys.Describe.YAML); nil when none is registered.
	YAML func()
	// Record keeps one event of the object's watch in the app's versions (what the history screen shows).
	// Safe for any goroutine.
	Record func(ev watch.ObjectEvent)
}

// objectView is the ObjectView of row, an object of res, for one screen.
func (a *App) objectView(res discovery.Resource, row *watch.Row) ObjectView {
	access := a.newAccess()
	scope := func() (discovery.Resource, string) { return res, row.Namespace }
	ov := ObjectView{
		Keys: func(shown func() (types.UID, bool)) []keymap.Binding {
			subject := func() (discovery.Resource, *watch.Row, bool) {
				uid, deleted := shown()
				if deleted {
					// the object was deleted: one line, nothing sent
					a.Errorf("%s %s was deleted: nothing to act on", res.Name, row.Key)
					return res, nil, false
				}
				return res, verbs.ShownRow(row, uid), true
			}
			return a.objectBindings(subject, scope, access)
		},
		Record: func(ev watch.ObjectEvent) { a.versions.Record(res.GVR(), ev, a.opts.Clock.Now()) },
	}
	if a.opts.Screens.History != nil {
		ov.History = func() { a.openHistory(res, row) }
	}
	if a.opts.Screens.Blame != nil {
		ov.Blame = func(obj *unstructured.Unstructured) { a.openBlame(row, obj) }
	}
	if a.opts.Screens.YAML != nil {
		ov.YAML = func() { a.openYAML(res, row) }
	}
	return ov
}

// openYAML pushes the registered YAML view (TableScreens.YAML) of row, an object of res: ui's one way to it
// (tables, the tree, the describe view). Nothing without one.
func (a *App) openYAML(res discovery.Resource, row *watch.Row) {
	if open := a.opts.Screens.YAML; open != nil {
		a.Push(open(a, res, row, a.objectView(res, row)))
	}
}

// openDescribe pushes the registered describe view (TableScreens.Describe) of row, an object of res.
func (a *App) openDescribe(res discovery.Resource, row *watch.Row) {
	if open := a.opts.Screens.Describe; open != nil {
		a.Push(open(a, res, row, a.objectView(res, row)))
	}
}
