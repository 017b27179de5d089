package ui

import (
	"fmt"

	"github.com/rivo/tview"
)

// PortForwardView lists the port-forwards started in this session (`:portforwards`, `:pf`): local address,
// target, since when (the local time it started) and state; ctrl-d stops one. UI goroutine only.
type PortForwardView struct {
	BaseScreen
	app   *App
	table *tview.Table
}

// NewPortForwardView returns the view of a's forwards.
func NewPortForwardView(a *App) *PortForwardView {
	v := &PortForwardView{app: a, table: tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
	v.table.SetBorder(true)
	v.table.SetSelectedStyle(a.theme.Cursor)
	v.render()
	return v
}

func (v *PortForwardView) Crumb() string              { return "portforwards" }
func (v *PortForwardView) Primitive() tview.Primitive { return v.table }
func (v *PortForwardView) Activate()                  { v.render() }
func (v *PortForwardView) Close()                     {}

// forwardsChanged shows the forwards as they are now (forwardsObserver).
func (v *PortForwardView) forwardsChanged() { v.render() }

// Bindings: stop a forward, help, quit.
func (v *PortForwardView) Bindings() []Binding {
	return []Binding{
		v.app.HelpBinding(),
		Keys.Forwards.Stop.Bind(v.stopSelected),
		v.app.QuitBinding(),
	}
}

// Status counts the active forwards.
func (v *PortForwardView) Status() string {
	active := 0
	for _, f := range v.app.forwards {
		if !f.ended {
			active++
		}
	}
	return fmt.Sprintf("%d active", active)
}

// render fills the table from the app's forwards, keeping the selection.
func (v *PortForwardView) render() {
	row, _ := v.table.GetSelection()
	v.table.Clear()
	v.table.SetTitle(fmt.Sprintf(" %sportforwards%s[%d] ", v.app.theme.Title, v.app.theme.Counter, len(v.app.forwards)))
	for c, title := range []string{"LOCAL", "TARGET", "SINCE", "STATE"} {
		v.table.SetCell(0, c, tview.NewTableCell(title).SetStyle(v.app.theme.Header).SetSelectable(false).SetExpansion(1))
	}
	for i, f := range v.app.forwards {
		color := v.app.theme.RowFg
		if f.ended {
			color = v.app.theme.ErrorColor
		}
		for c, text := range []string{f.local, "→ " + f.target, f.since.Format("15:04:05"), f.state()} {
			v.table.SetCell(i+1, c, tview.NewTableCell(tview.Escape(text)).SetTextColor(color).SetExpansion(1))
		}
	}
	if n := len(v.app.forwards); n > 0 {
		v.table.Select(min(max(row, 1), n), 0)
	}
}

// stopSelected asks, then stops the selected forward.
func (v *PortForwardView) stopSelected() {
	row, _ := v.table.GetSelection()
	if row < 1 || row > len(v.app.forwards) {
		v.app.errorf("no port-forward to stop")
		return
	}
	f := v.app.forwards[row-1]
	v.app.confirm(fmt.Sprintf("Stop the port-forward?\nfrom %s\nto %s", f.local, f.target), "Stop", func() {
		v.app.stopForward(f)
		v.app.message(fmt.Sprintf("stopped the port-forward %s → %s", f.local, f.target))
	})
}

// openPortForwards pushes the list of forwards.
func (a *App) openPortForwards() { a.push(NewPortForwardView(a)) }
