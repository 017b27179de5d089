package ui

import (
	"kscope/cluster"
	"kscope/discovery"
	"kscope/spawn"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/ui/verbs"
	"kscope/watch"
)

// tableHost is the app as one live table's host (livetable.Host): the app's services, and its part of the
// table: the keys over the table's objects (with their access cache), what enter does, the namespaces table
// giving way. One per table; UI goroutine, but for what livetable.Host says any goroutine may call.
type tableHost struct {
	*App
	t *livetable.Table
	// access keeps the server's answers about the verbs of the table's objects.
	access *verbs.Access
	// member tells that this host acts for one cluster of a table of several (tablerouting.go); members
	// are those hosts, by App, of the host that made the table.
	member  bool
	members map[*App]*tableHost
}

// newTable returns a live table of res over src titled title, hosted by the app (not started until shown).
func (a *App) newTable(res discovery.Resource, src cluster.RowSource, title string) *livetable.Table {
	h := &tableHost{App: a, access: a.newAccess()}
	h.t = livetable.New(h, res, src, title)
	h.t.SetHidden(a.hiddenRows(res))
	return h.t
}

// Spawn implements livetable.Host.
func (h *tableHost) Spawn() spawn.Func { return h.sup.Func() }

// Queue implements livetable.Host.
func (h *tableHost) Queue(fn func()) { h.tv.QueueUpdate(fn) }

// Settle implements livetable.Host: the app's Settle, after handing the settled table to the namespace
// check the start left for it (settledStart). Any goroutine but the UI's.
func (h *tableHost) Settle() {
	t := h.t
	h.tv.QueueUpdate(func() { h.settledStart(t) })
	h.App.Settle()
}

// Draw implements livetable.Host.
func (h *tableHost) Draw() { h.tv.ForceDraw() }

// Timing implements livetable.Host.
func (h *tableHost) Timing() livetable.Timing {
	return livetable.Timing{Tick: h.opts.Tick, FlashFor: h.opts.FlashFor, GhostFor: h.opts.GhostFor}
}

// OnTop implements livetable.Host.
func (h *tableHost) OnTop() bool { return h.top() == Screen(h.t) }

// ShowStatus implements livetable.Host.
func (h *tableHost) ShowStatus() { h.UpdateStatus(h.t) }

// StatusText implements livetable.Host.
func (h *tableHost) StatusText() string { return h.status.view.GetText(false) }

// StatusNote implements livetable.Host: the keys the server refuses here.
func (h *tableHost) StatusNote() string { return verbs.NotPermitted(h.Bindings()) }

// Bindings implements livetable.Host: the live table's keys: filter, sort, wide, namespaces and the selected
// object's actions.
func (h *tableHost) Bindings() []keymap.Binding {
	if cr, ok := h.routed(); ok {
		return h.routedBindings(cr)
	}
	a, t := h.App, h.t
	keys := []keymap.Binding{
		a.HelpBinding(),
		t.FilterBinding(),
		t.OpenBinding(),
	}
	roles := a.roles() // the registered screens' (ScreenSpec.Plays)
	if roles.YAML != nil {
		keys = append(keys, keymap.Keys.Table.YAML.Bind(h.withSelected(a.openYAML)))
	}
	if roles.History != nil {
		keys = append(keys, keymap.Keys.Table.History.Bind(h.withSelected(a.openHistory)))
	}
	keys = append(keys,
		keymap.Keys.Table.Copy.Bind(h.withSelected(func(_ discovery.Resource, row *watch.Row) {
			a.copyName(row.Name)
		})),
	)
	keys = append(keys, a.markedObjectBindings(t.Subject, h.marked, t.Scope, h.access)...)
	keys = append(keys, keymap.Keys.Table.NewFrom.Bind(h.withSelected(a.newFrom)))
	keys = append(keys, t.ViewBindings()...)
	keys = append(keys, t.HiddenBindings()...) // the registered screens' (ScreenSpec.Hidden)
	keys = append(keys, t.MarkBindings()...)
	keys = append(keys, keymap.Keys.Table.AllNamespaces.Bind(func() { a.setNamespace("") }))
	keys = append(keys, a.favoriteBindings()...)
	keys = append(keys, t.ColumnBindings()...)
	keys = append(keys, a.tableOpeners(t.Title, t.Source)...) // the registered screens' (ScreenSpec.Tables)
	keys = append(keys, a.historyBindings()...)
	return append(keys, a.QuitBinding())
}

// withSelected runs fn on the table's selected row, if there is one.
func (h *tableHost) withSelected(fn func(discovery.Resource, *watch.Row)) func() {
	return func() {
		if res, row, ok := h.t.Subject(); ok {
			fn(res, row)
		}
	}
}

// Open implements livetable.Host: enter drills down into the selected object (drillDown), else opens its
// YAML; on a namespace it switches to that namespace (enterNamespace).
func (h *tableHost) Open(res discovery.Resource, row *watch.Row) {
	if cr, ok := h.routed(); ok {
		h.openRouted(cr, res, row)
		return
	}
	a := h.App
	if !h.picksNamespace() {
		if !a.drillDown(res, row) {
			a.openYAML(res, row)
		}
		return
	}
	a.enterNamespace(row.Name)
}

// picksNamespace tells whether the table lists namespaces (Enter switches to one).
func (h *tableHost) picksNamespace() bool {
	return h.t.Resource().GVR() == namespacesResource().GVR()
}

// NamespaceChanged implements livetable.Host: the namespace list gives way to the view below it.
func (h *tableHost) NamespaceChanged(ns string) bool {
	if !h.picksNamespace() || len(h.stack) <= 1 {
		return false
	}
	h.pop()
	h.top().NamespaceChanged(ns)
	return true
}

// A live table is one of the app's screens, and tableHost its host.
var (
	_ Screen         = (*livetable.Table)(nil)
	_ livetable.Host = (*tableHost)(nil)
)
