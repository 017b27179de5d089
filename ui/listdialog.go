package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// choose shows a small dialog listing items, titled title, with item preselect selected: Enter runs then
// with the chosen index, esc closes the dialog and says cancelled. While it is open it has every key (the
// app's modal), as the confirmation dialogs do. UI goroutine only.
func (a *App) choose(title string, items []string, preselect int, then func(int)) {
	list := tview.NewList().ShowSecondaryText(false).SetHighlightFullLine(true).
		SetSelectedStyle(tcell.StyleDefault.Background(tcell.ColorAqua).Foreground(tcell.ColorBlack))
	width := len([]rune(title)) + 4
	for _, it := range items {
		list.AddItem(tview.Escape(it), "", 0, nil)
		width = max(width, len([]rune(it))+4)
	}
	list.SetCurrentItem(preselect)
	list.SetSelectedFunc(func(i int, _, _ string, _ rune) {
		a.closeModal()
		then(i)
	})
	list.SetDoneFunc(func() {
		a.closeModal()
		a.message("cancelled")
	})
	list.SetBorder(true).SetTitle(" " + tview.Escape(title) + " (enter: choose, esc: cancel) ")
	width = max(width, len([]rune(title))+34)
	height := min(len(items), 15) + 2
	frame := tview.NewFlex().
		AddItem(nil, 0, 1, false).
		AddItem(tview.NewFlex().SetDirection(tview.FlexRow).
			AddItem(nil, 0, 1, false).
			AddItem(list, height, 0, true).
			AddItem(nil, 0, 1, false), width, 0, true).
		AddItem(nil, 0, 1, false)
	a.modal = frame
	a.body.AddPage("modal", frame, true, true)
	a.tv.SetFocus(list)
}
