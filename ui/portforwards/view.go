package portforwards

import (
	"fmt"
	"strconv"

	"github.com/rivo/tview"

	"kscope/forwards"
	"kscope/ui"
	"kscope/ui/keymap"
)

// View lists the port-forwards started in this session (`:portforwards`, `:pf`): local address, target, since
// when (the local time it started), state (forwarding to which pod, reconnecting or waiting for a pod since
// when and why, stopped or ended and why), how many times it moved to another pod and what it follows (the
// pods it may ever go to: "pods of deployment web (uid …)"); ctrl-d stops one. It follows the list's changes
// while open. UI goroutine only.
type View struct {
	ui.BaseScreen
	nav     ui.Navigator
	list    *forwards.List
	table   *tview.Table
	unwatch func()
}

// New returns the view of list, the app's forwards (Spec's command opens it over Session.Forwards).
func New(nav ui.Navigator, list *forwards.List) ui.Screen {
	v := &View{nav: nav, list: list, table: tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
	v.table.SetBorder(true)
	v.table.SetSelectedStyle(nav.Theme().Cursor)
	v.render()
	v.unwatch = list.Watch(func() {
		v.render()
		nav.UpdateStatus(v)
	})
	return v
}

func (v *View) Crumb() string              { return "portforwards" }
func (v *View) Primitive() tview.Primitive { return v.table }
func (v *View) Activate()                  { v.render() }

// Close stops following the list.
func (v *View) Close() { v.unwatch() }

// Bindings: stop a forward, help, quit.
func (v *View) Bindings() []keymap.Binding {
	return []keymap.Binding{
		v.nav.HelpBinding(),
		keys.Stop.Bind(v.stopSelected),
		v.nav.QuitBinding(),
	}
}

// Status counts the active forwards.
func (v *View) Status() string { return fmt.Sprintf("%d active", v.list.Active()) }

// render fills the table from the list, keeping the selection.
func (v *View) render() {
	theme := v.nav.Theme()
	items := v.list.Items()
	row, _ := v.table.GetSelection()
	v.table.Clear()
	v.table.SetTitle(fmt.Sprintf(" %sportforwards%s[%d] ", theme.Title, theme.Counter, len(items)))
	for c, title := range []string{"LOCAL", "TARGET", "SINCE", "STATE", "MOVES", "FOLLOWS"} {
		v.table.SetCell(0, c, tview.NewTableCell(title).SetStyle(theme.Header).SetSelectable(false).SetExpansion(1))
	}
	for i, f := range items {
		color := theme.RowFg
		switch {
		case f.Ended():
			color = theme.ErrorColor
		case f.InGap():
			color = theme.RowFlash
		}
		cells := []string{f.Local, "→ " + f.Target, f.Since.Format("15:04:05"), f.State(), strconv.Itoa(f.Moves()),
			f.Follows()}
		for c, text := range cells {
			v.table.SetCell(i+1, c, tview.NewTableCell(tview.Escape(text)).SetTextColor(color).SetExpansion(1))
		}
	}
	if n := len(items); n > 0 {
		v.table.Select(min(max(row, 1), n), 0)
	}
}

// stopSelected asks, then stops the selected forward.
func (v *View) stopSelected() {
	items := v.list.Items()
	row, _ := v.table.GetSelection()
	if row < 1 || row > len(items) {
		v.nav.Errorf("no port-forward to stop")
		return
	}
	f := items[row-1]
	v.nav.Confirm(fmt.Sprintf("Stop the port-forward?\nfrom %s\nto %s", f.Local, f.Target), "Stop", func() {
		v.list.Stop(f)
		v.nav.Message(fmt.Sprintf("stopped the port-forward %s → %s", f.Local, f.Target))
	})
}
