package ui

import (
	"kscope/cluster"
	"kscope/discovery"
	"kscope/spawn"
	"kscope/ui/drill"
	"kscope/watch"
)

// drillHost is the app as drill's host: the verbs' services, and the tables and screens it opens. UI
// goroutine.
type drillHost struct{ verbHost }

// drillDown opens what Enter shows below row, an object of res (drill.Down); false: nothing drills down
// from res.
func (a *App) drillDown(res discovery.Resource, row *watch.Row) bool {
	return drill.Down(drillHost{verbHost{a}}, a.opts.Jumps, res, row)
}

// Spawn implements drill.Host.
func (h drillHost) Spawn() spawn.Func { return h.sup.Func() }

// OpenTable implements drill.Host.
func (h drillHost) OpenTable(res discovery.Resource, src cluster.RowSource, title string, keepNamespace bool) {
	t := h.newTable(res, src, title)
	if keepNamespace {
		t.KeepNamespace()
	}
	h.Push(t)
}

// OpenContainers implements drill.Host.
func (h drillHost) OpenContainers(res discovery.Resource, row *watch.Row) bool {
	return h.openContainers(res, row)
}

// OpenNamed implements drill.Host.
func (h drillHost) OpenNamed(input string) {
	h.resolveThen(h.cluster.Catalog(), input, func(r discovery.Resource) { h.openResource(r, "") })
}

// enterNamespace is Enter on a namespace: it switches to ns, and the view below the namespaces (a namespaced
// table) reopens there; with none (the namespaces were opened from the top), it opens the last namespaced
// resource viewed before them, in ns, else the pods.
func (a *App) enterNamespace(ns string) {
	a.setNamespace(ns)
	if len(a.stack) > 1 {
		return
	}
	if res, ok := a.history.lastNamespaced(); ok {
		a.openTop(res)
		return
	}
	a.command("pods")
}

// lastNamespaced is the last namespaced resource opened up to the current position of the history.
func (h *viewHistory) lastNamespaced() (discovery.Resource, bool) {
	for i := min(h.at, len(h.entries)-1); i >= 0; i-- {
		if h.entries[i].Namespaced {
			return h.entries[i], true
		}
	}
	return discovery.Resource{}, false
}
