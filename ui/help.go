package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// HelpView lists the key table: the keys of the view it was opened from first, then the others.
// UI goroutine only.
type HelpView struct {
	table *tview.Table
}

// NewHelpView builds the help screen for keys, opened from a view of kind from.
func NewHelpView(keys []Binding, from viewKind) *HelpView {
	h := &HelpView{table: tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
	h.table.SetBorder(true).SetTitle(" [aqua::b]help[white] (esc: back) ")
	h.table.SetSelectedStyle(tcell.StyleDefault.Background(tcell.ColorAqua).Foreground(tcell.ColorBlack))
	for c, name := range []string{"KEY", "NAME", "VIEWS", "DESCRIPTION"} {
		h.table.SetCell(0, c, tview.NewTableCell(name).SetStyle(styleHeader).SetSelectable(false))
	}
	row := 1
	for _, here := range []bool{true, false} {
		for _, b := range keys {
			if (b.Views&from != 0) != here {
				continue
			}
			color := colorNormal
			if !here {
				color = colorDimText
			}
			for c, text := range []string{b.Label, b.Name, b.Views.String(), b.Description} {
				h.table.SetCell(row, c, tview.NewTableCell(tview.Escape(text)).SetTextColor(color))
			}
			row++
		}
	}
	return h
}

func (h *HelpView) kind() viewKind             { return inHelp }
func (h *HelpView) crumb() string              { return "help" }
func (h *HelpView) primitive() tview.Primitive { return h.table }
func (h *HelpView) activate()                  {}
func (h *HelpView) close()                     {}

// showHelp pushes the help screen (once).
func (a *App) showHelp() {
	if _, ok := a.top().(*HelpView); ok {
		return
	}
	a.push(NewHelpView(a.keys, a.top().kind()))
}
