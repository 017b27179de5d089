package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// Choose implements Navigator: it shows a list of items in a dialog with title, selected preselected; Enter
// calls pick with the chosen index, esc closes it without a choice. UI goroutine only.
func (a *App) Choose(title string, items []string, selected int, pick func(int)) {
	list := tview.NewList().ShowSecondaryText(false).SetHighlightFullLine(true)
	width := len(title) + 4
	for _, item := range items {
		list.AddItem(item, "", 0, nil)
		width = max(width, len(item)+6)
	}
	list.SetCurrentItem(selected)
	list.SetBorder(true).SetTitle(" " + tview.Escape(title) + " ")
	list.SetSelectedFunc(func(i int, _, _ string, _ rune) {
		a.closeModal()
		pick(i)
	})
	list.SetDoneFunc(a.closeModal)
	list.SetInputCapture(func(ev *tcell.EventKey) *tcell.EventKey {
		switch ev.Rune() { // vi keys, as in the tables
		case 'j':
			return tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone)
		case 'k':
			return tcell.NewEventKey(tcell.KeyUp, 0, tcell.ModNone)
		}
		return ev
	})
	dialog := tview.NewGrid().SetColumns(0, width, 0).SetRows(0, len(items)+2, 0).AddItem(list, 1, 1, 1, 1, 0, 0, true)
	a.modal = dialog
	a.body.AddPage("modal", dialog, true, true)
	a.tv.SetFocus(list)
}
