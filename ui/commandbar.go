package ui

import (
	"github.com/rivo/tview"

	"kscope/ui/prompt"
)

// newCommandBar returns the prompt line of a: it takes the focus from the top view while it is open and
// gives it back (with the header and status line refreshed) when it closes; a Tab's candidates show on the
// status line.
func newCommandBar(a *App) *prompt.Bar {
	return prompt.New(prompt.Hooks{
		Focus: func(p tview.Primitive) { a.tv.SetFocus(p) },
		Closed: func() {
			if v := a.top(); v != nil {
				a.tv.SetFocus(v.Primitive())
			}
			a.refreshChrome()
		},
		Candidates: a.status.ShowCandidates,
	})
}
