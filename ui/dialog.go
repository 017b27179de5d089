package ui

import "github.com/rivo/tview"

// Confirm implements Navigator: it shows question with Cancel (focused) and the action's button; do runs if the user chooses it.
func (a *App) Confirm(question, action string, do func()) {
	if a.context != "" { // a row of another cluster: the question names it
		question = "context " + a.context + ": " + question
	}
	modal := tview.NewModal().SetText(tview.Escape(question)).AddButtons([]string{"Cancel", action})
	a.theme.PaintDialog(modal)
	modal.SetDoneFunc(func(_ int, label string) {
		a.closeModal()
		if label == action {
			do()
		}
	})
	a.showModal(modal, modal)
}

// showModal shows p over the views, focus focused, until closeModal.
func (a *App) showModal(p, focus tview.Primitive) {
	a.modal = p
	a.body.AddPage("modal", p, true, true)
	a.tv.SetFocus(focus)
}

func (a *App) closeModal() {
	a.body.RemovePage("modal")
	a.modal = nil
	if v := a.top(); v != nil {
		a.tv.SetFocus(v.Primitive())
	}
}
