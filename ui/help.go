package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/ui/keymap"
	"kscope/ui/plugins"
)

// HelpView lists the keys of the view it was opened from, then the global keys: the same bindings that
// drive key handling. UI goroutine only.
type HelpView struct {
	BaseScreen
	app   *App
	table *tview.Table
}

// NewHelpView builds the help screen for a view called name with its own keys, the global ones, and the
// configured keys that conflict with another binding there (not bound, or taking a key with override).
func NewHelpView(a *App, name string, own, global []keymap.Binding, conflicts []keyConflict) *HelpView {
	h := &HelpView{app: a, table: tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
	th := a.theme
	h.table.SetBorder(true).SetTitle(" " + th.Title + "help" + th.Counter + " " + tview.Escape(name) + " (esc: back) ")
	h.table.SetSelectedStyle(th.Cursor)
	for c, title := range []string{"KEY", "NAME", "WHERE", "DESCRIPTION"} {
		h.table.SetCell(0, c, tview.NewTableCell(title).SetStyle(th.HelpHeader).SetSelectable(false))
	}
	row := 1
	for i, line := range readOnlyCovers { // first, what read-only mode covers
		if !a.opts.ReadOnly {
			break
		}
		name := "read-only"
		if i > 0 {
			name = ""
		}
		for c, text := range []string{"", name, "everywhere", line} {
			h.table.SetCell(row, c, tview.NewTableCell(tview.Escape(text)).SetTextColor(th.ErrorColor))
		}
		row++
	}
	for _, group := range []struct {
		where string
		keys  []keymap.Binding
		color tcell.Color
	}{{name, own, th.HelpText}, {"everywhere", global, th.Dim}} {
		for _, b := range group.keys {
			desc, color := b.Description, group.color
			if b.Denied() {
				desc, color = "not permitted: "+desc, th.ErrorColor
			}
			for c, text := range []string{b.Label, b.Name, group.where, desc} {
				cellColor := color
				if c == 0 && color == th.HelpText {
					cellColor = th.HelpKey
				}
				h.table.SetCell(row, c, tview.NewTableCell(tview.Escape(text)).SetTextColor(cellColor))
			}
			row++
		}
	}
	for _, c := range conflicts {
		b, where := c.lost, "not bound"
		if !plugins.Configured(b) {
			where = "overridden"
		}
		for col, text := range []string{b.Label, b.Name, where, c.why(name)} {
			h.table.SetCell(row, col, tview.NewTableCell(tview.Escape(text)).SetTextColor(th.ErrorColor))
		}
		row++
	}
	return h
}

func (h *HelpView) Crumb() string              { return "help" }
func (h *HelpView) Primitive() tview.Primitive { return h.table }
func (h *HelpView) Activate()                  {}
func (h *HelpView) Close()                     {}

// Bindings: `?` again closes the help, `q` quits.
func (h *HelpView) Bindings() []keymap.Binding {
	return []keymap.Binding{
		keymap.Keys.Help.Back.Bind(h.app.pop),
		h.app.QuitBinding(),
	}
}

// showHelp pushes the help screen for the top view.
func (a *App) showHelp() {
	v := a.top()
	k := a.viewKeys(v)
	a.Push(NewHelpView(a, v.Crumb(), k.own, k.global, k.conflicts))
}
