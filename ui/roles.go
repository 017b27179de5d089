package ui

import (
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/history"
	"kscope/ui/keymap"
	"kscope/ui/verbs"
	"kscope/watch"
)

// Roles are the parts a registered screen plays for kscope's own keys and for the other screens, each named
// by what it shows rather than by the screen that shows it: a screen fills the ones it plays in its
// ScreenSpec (ScreenSpec.Plays), and the core opens whichever registered screen plays a role. A role no
// registered screen plays leaves its keys unbound; when two play one, the first registered is the one
// opened (ScreenCollisions says so). A plain value; its funcs run on the UI goroutine.
type Roles struct {
	// YAML is the live YAML of an object (keymap.Keys.Table.YAML, Enter's last resort in a table, the
	// describe view's and the other screens' way to it: Session.OpenYAML).
	YAML ObjectScreen
	// Describe is the live description of an object (keymap.Keys.Object.Describe).
	Describe ObjectScreen
	// History is the versions kscope keeps of an object (keymap.Keys.Table.History in a table,
	// keymap.Keys.YAML.History in a view of one object, Session.OpenHistory).
	History HistoryScreen
	// Blame is each YAML line's field managers of an object (keymap.Keys.YAML.Blame).
	Blame BlameScreen
	// Logs opens the logs of an object (keymap.Keys.Object.Logs, PrevLogs; the containers' keys).
	Logs LogsOpener
	// Containers is the containers of a pod, live (Enter on a pod).
	Containers ContainersScreen
	// Contexts is the kubeconfig's contexts (`:ctx` without a name; Options.Contexts must be set too).
	Contexts ContextsScreen
}

// ObjectScreen returns a screen of row, an object of res: obj is what ui hands it (ObjectView: the object
// keys, the openers of the screens it leads to, the recording of its versions).
type ObjectScreen func(nav Navigator, res discovery.Resource, row *watch.Row, obj ObjectView) Screen

// HistoryScreen returns the history of row: entries returns the versions kept of it, oldest first
// (history.Entries over the app's book and an open table's row versions), read again each time it is
// called; call it on the UI goroutine only.
type HistoryScreen func(nav Navigator, row *watch.Row, entries func() []history.Entry) Screen

// BlameScreen returns each YAML line's field managers of obj, the object of row as a view of it shows it;
// obj is never nil, and must not be modified.
type BlameScreen func(nav Navigator, row *watch.Row, obj *unstructured.Unstructured) Screen

// LogsOpener opens the logs of row, an object of res (previous: of the containers' previous instances). It
// may read the cluster and ask which container before it pushes its screen, or say on the prompt line why
// it opens none; settings are the Options of the logs.
type LogsOpener func(nav Navigator, res discovery.Resource, row *watch.Row, previous bool, settings LogSettings)

// ContainersScreen returns the containers of row, a pod (res), live: ctr is what ui hands it (ContainerView:
// the keys that act on one container, checked and refused as the object keys).
type ContainersScreen func(nav Navigator, res discovery.Resource, row *watch.Row, ctr ContainerView) Screen

// ContextsScreen returns the kubeconfig's contexts: list reads them (it may block: call it off the UI
// goroutine), use switches to one (UI goroutine).
type ContextsScreen func(nav Navigator, list func() ([]cluster.KubeContext, error), use func(name string)) Screen

// LogSettings are what Options say of a logs screen (config.yaml's logger section, --log-lines). A plain
// value.
type LogSettings struct {
	// Lines is how many lines the screen keeps (Options.LogLines; 0: its default); Tail how many of a
	// container's last lines it starts with (Options.LogTail; 0: its default).
	Lines, Tail int
	// Wrap, Timestamps and Follow, when set, are its toggles at start (nil: its defaults).
	Wrap, Timestamps, Follow *bool
	// Container, when set, is the one container of a pod to read (the containers view's choice): no
	// question asked.
	Container string
}

// playedRoles are the roles screens play: for each, the first screen's that plays it.
func playedRoles(screens []ScreenSpec) Roles {
	var r Roles
	played := reflect.ValueOf(&r).Elem()
	for _, s := range screens {
		p := reflect.ValueOf(s.Plays)
		for i := range p.NumField() {
			if played.Field(i).IsNil() {
				played.Field(i).Set(p.Field(i))
			}
		}
	}
	return r
}

// roleNames are the names of the roles p plays, as a collision line says them.
func roleNames(p Roles) []string {
	var out []string
	for _, r := range []struct {
		set  bool
		name string
	}{{p.YAML != nil, "the YAML view"}, {p.Describe != nil, "the describe view"}, {p.History != nil, "the history view"},
		{p.Blame != nil, "the blame view"}, {p.Logs != nil, "the logs view"}, {p.Containers != nil, "the containers view"},
		{p.Contexts != nil, "the contexts view"}} {
		if r.set {
			out = append(out, r.name)
		}
	}
	return out
}

// roleCollisions are the lines saying which of screens plays a role an earlier one plays already.
func roleCollisions(screens []ScreenSpec) []string {
	var out []string
	who := map[string]string{}
	for _, s := range screens {
		for _, role := range roleNames(s.Plays) {
			if first, ok := who[role]; ok {
				out = append(out, fmt.Sprintf("%s plays %s too: %s's is the one opened", screenName(s), role, first))
				continue
			}
			who[role] = screenName(s)
		}
	}
	return out
}

// roles are the roles a's registered screens play.
func (a *App) roles() Roles { return playedRoles(a.opts.Registered) }

// ObjectView is what ui hands a screen showing one object (Roles.YAML, Describe): the object keys with
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
	// History opens the versions kscope keeps of the object (keymap.Keys.YAML.History); nil when no screen
	// plays Roles.History.
	History func()
	// Blame opens the field managers of each YAML line of obj, the object as shown (nil: not yet read; it
	// then says so); nil when no screen plays Roles.Blame.
	Blame func(obj *unstructured.Unstructured)
	// YAML opens the YAML view of the object (keymap.Keys.Describe.YAML); nil when no screen plays
	// Roles.YAML.
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
	roles := a.roles()
	if roles.History != nil {
		ov.History = func() { a.openHistory(res, row) }
	}
	if roles.Blame != nil {
		ov.Blame = func(obj *unstructured.Unstructured) { a.openBlame(row, obj) }
	}
	if roles.YAML != nil {
		ov.YAML = func() { a.openYAML(res, row) }
	}
	return ov
}

// openYAML pushes the YAML view (Roles.YAML) of row, an object of res: ui's one way to it (tables, the tree,
// the describe view). Nothing without one.
func (a *App) openYAML(res discovery.Resource, row *watch.Row) {
	if open := a.roles().YAML; open != nil {
		a.Push(open(a, res, row, a.objectView(res, row)))
	}
}

// openDescribe pushes the describe view (Roles.Describe) of row, an object of res.
func (a *App) openDescribe(res discovery.Resource, row *watch.Row) {
	if open := a.roles().Describe; open != nil {
		a.Push(open(a, res, row, a.objectView(res, row)))
	}
}

// openHistory pushes the history screen (Roles.History) of row, an object of res.
func (a *App) openHistory(res discovery.Resource, row *watch.Row) {
	if open := a.roles().History; open != nil {
		a.Push(open(a, row, func() []history.Entry { return a.historyOf(res, row) }))
	}
}

// openBlame pushes the blame screen (Roles.Blame) of obj, the object of row; nil (not read yet) is an error.
func (a *App) openBlame(row *watch.Row, obj *unstructured.Unstructured) {
	open := a.roles().Blame
	switch {
	case open == nil:
	case obj == nil:
		a.Errorf("no object to blame yet")
	default:
		a.Push(open(a, row, obj))
	}
}

// openLogs opens the logs (Roles.Logs) of row, an object of res, with the app's settings and container
// (""; none chosen); nil when no screen plays the role.
func (a *App) openLogs() func(res discovery.Resource, row *watch.Row, previous bool, container string) {
	open := a.roles().Logs
	if open == nil {
		return nil
	}
	return func(res discovery.Resource, row *watch.Row, previous bool, container string) {
		settings := a.opts.logSettings()
		settings.Container = container
		open(a, res, row, previous, settings)
	}
}

// ContainerView is what ui hands the containers screen of one pod (Roles.Containers): the keys that act on
// one of its containers. A plain value made for one screen; its funcs run on the UI goroutine.
type ContainerView struct {
	// Keys are keymap.Keys.Containers' (logs, previous logs, and the writes shell, attach and port-forward,
	// asked about before they are offered and refused in read-only mode, as the object keys are), each acting
	// on the container selected names when a key is pressed; selected returns false (having said why) when there is
	// none. The logs keys are bound only when a screen plays Roles.Logs.
	Keys func(selected func() (container string, ok bool)) []keymap.Binding
}

// openContainers pushes the containers screen (Roles.Containers) of row, a pod (res), its keys with one
// access cache for its life; it tells whether there is one.
func (a *App) openContainers(res discovery.Resource, row *watch.Row) bool {
	open := a.roles().Containers
	if open == nil {
		return false
	}
	access := a.newAccess()
	var logs func(container string, previous bool)
	if open := a.openLogs(); open != nil {
		logs = func(container string, previous bool) { open(res, row, previous, container) }
	}
	a.Push(open(a, res, row, ContainerView{Keys: func(selected func() (string, bool)) []keymap.Binding {
		return a.verbs.ContainerBindings(res, row, selected, access, logs)
	}}))
	return true
}

// openContexts pushes the contexts screen (`:ctx` without a name) and tells whether it could: a screen must
// play Roles.Contexts and Options.Contexts list them.
func (a *App) openContexts() bool {
	open, list := a.roles().Contexts, a.opts.Contexts
	if open == nil || list == nil {
		return false
	}
	a.Push(open(a, list, a.switchContext))
	return true
}
