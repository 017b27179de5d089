package ui

import (
	"kscope/discovery"
	"kscope/ui/keymap"
)

// historyLimit bounds how many resources the navigation history keeps (the oldest forgotten first).
const historyLimit = 100

// viewHistory is the resources the user opened as tables from the top (the start resource, `:` commands,
// the picker), in order, with the position of the one shown: `[` and `]` move back and forward through it,
// `-` goes to the one before (again: back), as in k9s. Opening a resource drops the entries after the
// position, as a browser does. UI goroutine only.
type viewHistory struct {
	entries []discovery.Resource
	at      int
}

// record adds res after the current position, unless it is the current entry.
func (h *viewHistory) record(res discovery.Resource) {
	if len(h.entries) > 0 && h.entries[h.at].GVR() == res.GVR() {
		return
	}
	h.entries = append(h.entries[:min(h.at+1, len(h.entries))], res)
	if len(h.entries) > historyLimit {
		h.entries = h.entries[len(h.entries)-historyLimit:]
	}
	h.at = len(h.entries) - 1
}

// move returns the entry step places from the current one and moves there; ok is false at either end.
func (h *viewHistory) move(step int) (discovery.Resource, bool) {
	to := h.at + step
	if to < 0 || to >= len(h.entries) {
		return discovery.Resource{}, false
	}
	h.at = to
	return h.entries[to], true
}

// previous returns the entry before the current one, without moving (`-` records it anew).
func (h *viewHistory) previous() (discovery.Resource, bool) {
	if h.at < 1 || h.at >= len(h.entries) {
		return discovery.Resource{}, false
	}
	return h.entries[h.at-1], true
}

// historyBindings are the navigation keys of the views opened from the top.
func (a *App) historyBindings() []keymap.Binding {
	return []keymap.Binding{
		keymap.Keys.Opened.Back.Bind(func() { a.historyMove(-1) }),
		keymap.Keys.Opened.Forward.Bind(func() { a.historyMove(1) }),
		keymap.Keys.Opened.LastView.Bind(a.historyLast),
	}
}

// historyMove opens the resource step places away in the history.
func (a *App) historyMove(step int) {
	res, ok := a.history.move(step)
	if !ok {
		a.Errorf("no %s resource in the history", map[bool]string{true: "earlier", false: "later"}[step < 0])
		return
	}
	a.popTo(1)
	a.openResource(res, "")
}

// historyLast opens the resource before the current one and records it, so that `-` again comes back.
func (a *App) historyLast() {
	res, ok := a.history.previous()
	if !ok {
		a.Errorf("no earlier resource in the history")
		return
	}
	a.openTop(res)
}

// openTop opens res as the table above the picker and records it in the history.
func (a *App) openTop(res discovery.Resource) {
	a.popTo(1)
	if a.openResource(res, "") {
		a.history.record(res)
	}
}
