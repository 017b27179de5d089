package navtest

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/ui"
)

// Press delivers a key to s as the app does, as the UI goroutine (not from within UI): the binding of s for
// the key runs, else s's Typed, else its widget (scrolling). It tells whether one of s's bindings took it.
func (n *Nav) Press(s ui.Screen, ev *tcell.EventKey) bool {
	took := false
	n.UI(func() {
		for _, b := range s.Bindings() {
			if b.Handle(ev) {
				took = true
				return
			}
		}
		if s.Typed(ev) {
			return
		}
		if h := s.Primitive().InputHandler(); h != nil {
			h(ev, func(tview.Primitive) {})
		}
	})
	return took
}
