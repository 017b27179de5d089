package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// HelpView lists the keys of the view it was opened from, then the global keys: the same bindings that
// drive key handling. UI goroutine only.
type HelpView struct {
	baseView
	app   *App
	table *tview.Table
}

// NewHelpView builds the help screen for a view called name with its own keys and the global ones.
func NewHelpView(a *App, name string, own, global []Binding) *HelpView {
	h := &HelpView{app: a, table: tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
	h.table.SetBorder(true).SetTitle(" [aqua::b]help[white] " + tview.Escape(name) + " (esc: back) ")
	h.table.SetSelectedStyle(tcell.StyleDefault.Background(tcell.ColorAqua).Foreground(tcell.ColorBlack))
	for c, title := range []string{"KEY", "NAME", "WHERE", "DESCRIPTION"} {
		h.table.SetCell(0, c, tview.NewTableCell(title).SetStyle(styleHeader).SetSelectable(false))
	}
	row := 1
	for _, group := range []struct {
		where string
		keys  []Binding
		color tcell.Color
	}{{name, own, colorNormal}, {"everywhere", global, colorDimText}} {
		for _, b := range group.keys {
			desc, color := b.Description, group.color
			if b.denied != nil && b.denied() {
				desc, color = "not permitted: "+desc, tcell.ColorRed
			}
			for c, text := range []string{b.Label, b.Name, group.where, desc} {
				h.table.SetCell(row, c, tview.NewTableCell(tview.Escape(text)).SetTextColor(color))
			}
			row++
		}
	}
	return h
}

func (h *HelpView) crumb() string              { return "help" }
func (h *HelpView) primitive() tview.Primitive { return h.table }
func (h *HelpView) activate()                  {}
func (h *HelpView) close()                     {}

// bindings: `?` again closes the help, `q` quits.
func (h *HelpView) bindings() []Binding {
	return []Binding{
		char('?').does("back", "close the help", h.app.pop),
		h.app.quitBinding(),
	}
}

// showHelp pushes the help screen for the top view.
func (a *App) showHelp() {
	v := a.top()
	a.push(NewHelpView(a, v.crumb(), v.bindings(), a.globalBindings()))
}
