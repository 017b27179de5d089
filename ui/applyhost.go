package ui

import (
	"kscope/discovery"
	"kscope/ui/apply"
	"kscope/watch"
)

// applyHost is the app as package apply's host: the verbs' services, and the stack. UI goroutine.
type applyHost struct{ verbHost }

// Open implements apply.Host.
func (h applyHost) Open(s apply.Screen) { h.Push(s) }

// CloseScreen implements apply.Host.
func (h applyHost) CloseScreen(s apply.Screen) {
	if top := h.top(); top != nil && top == Screen(s) {
		h.pop()
	}
}

// runApply is `:apply ARGS` (apply.Command).
func (a *App) runApply(args []string) { apply.Command(applyHost{verbHost{a}}, args) }

// newFrom is the "new from this object" key on row, an object of res (apply.NewFrom).
func (a *App) newFrom(res discovery.Resource, row *watch.Row) {
	apply.NewFrom(applyHost{verbHost{a}}, res, row)
}
