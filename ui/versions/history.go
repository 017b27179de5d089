package versions

import (
	"context"
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/history"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/watch"
)

// historyBounds says, for the status line, what the history keeps.
func historyBounds() string {
	return fmt.Sprintf("kept: %d per object, %d rows per table, %d MB of objects; oldest dropped first",
		history.VersionsPerObject, watch.RowVersionsTotal, history.VersionsBytes>>20)
}

// HistoryView lists the versions kscope has seen of one object, newest first: when, the resourceVersion, the
// field manager and operation that made each (from managedFields) and what changed; Enter shows the diff to
// the version before. It reads again every tick while shown. UI goroutine only (the Navigator runs its tick
// there).
type HistoryView struct {
	ui.BaseScreen
	nav     ui.Navigator
	row     *watch.Row
	read    func() []history.Entry
	table   *tview.Table
	entries []history.Entry // oldest first; the table shows them newest first
	life    screenlife.Life // the tick
}

// NewHistory returns the history of row (ui.Roles.History): entries returns the versions kept of it,
// oldest first; the view calls it on the UI goroutine each time it reads them again.
func NewHistory(nav ui.Navigator, row *watch.Row, entries func() []history.Entry) ui.Screen {
	v := &HistoryView{nav: nav, row: row, read: entries}
	v.table = tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)
	v.table.SetSelectedStyle(tcell.StyleDefault.Background(tcell.ColorAqua).Foreground(tcell.ColorBlack))
	v.table.SetBorder(true)
	return v
}

func (v *HistoryView) Crumb() string              { return "history " + v.row.Name }
func (v *HistoryView) Primitive() tview.Primitive { return v.table }

// Bindings are the history view's keys.
func (v *HistoryView) Bindings() []keymap.Binding {
	return []keymap.Binding{
		v.nav.HelpBinding(),
		keymap.Keys.Versions.Diff.Bind(v.openDiff),
		v.nav.QuitBinding(),
	}
}

// Activate reads the versions, and starts reading them again every tick.
func (v *HistoryView) Activate() {
	v.reload()
	v.life.Start(v.nav, func(context.Context) { v.life.Tick(v, v.reload) })
}

// Close stops the reads.
func (v *HistoryView) Close() { v.life.Stop() }

// reload reads the versions again, keeping the selection on the same version.
func (v *HistoryView) reload() {
	selected := v.selected()
	entries := v.read()
	if v.table.GetRowCount() > 1 && sameVersions(entries, v.entries) {
		return
	}
	v.entries = entries
	v.table.Clear()
	for i, h := range []string{"TIME", "RESOURCEVERSION", "MANAGER", "OPERATION", "CHANGED"} {
		v.table.SetCell(0, i, tview.NewTableCell(h).SetSelectable(false).SetTextColor(tcell.ColorAqua).SetAttributes(tcell.AttrBold))
	}
	for r := range entries {
		v.setRow(r+1, entries[len(entries)-1-r])
	}
	if len(entries) == 0 {
		v.table.SetCell(1, 0, tview.NewTableCell("no version seen yet: kscope keeps the versions it sees while the object's table or YAML is open").
			SetSelectable(false).SetTextColor(v.nav.Theme().Dim))
	}
	row := 1
	for r := range entries {
		if selected != nil && entries[len(entries)-1-r].RV == selected.RV {
			row = r + 1
		}
	}
	v.table.Select(row, 0)
	v.table.SetTitle(fmt.Sprintf(" [aqua::b]history[white] %s [%d] ", tview.Escape(v.row.Key), len(entries)))
	v.nav.UpdateStatus(v)
}

// sameVersions tells whether a and b hold the same versions (the bounds drop the oldest as new ones come).
func sameVersions(a, b []history.Entry) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || a[0].RV == b[0].RV && a[0].Seen.Equal(b[0].Seen) && a[len(a)-1].RV == b[len(b)-1].RV &&
		a[len(a)-1].Seen.Equal(b[len(b)-1].Seen)
}

// setRow shows e on table row r.
func (v *HistoryView) setRow(r int, e history.Entry) {
	when := "listed"
	if !e.Seen.IsZero() {
		when = e.Seen.Local().Format("15:04:05")
	}
	manager, op := "—", "—"
	if w, sure, ok := e.Writer(); ok {
		manager, op = w.Name(), w.Operation
		if !sure {
			manager += "?"
		}
	}
	rv := e.RV
	if rv == "" {
		rv = "—"
	}
	width := v.nav.Width()
	for i, text := range []string{when, rv, manager, op, e.Summary(max(width-len(when)-len(rv)-len(manager)-len(op)-8, 40))} {
		v.table.SetCell(r, i, tview.NewTableCell(tview.Escape(text)))
	}
}

// selected returns the version under the cursor, or nil.
func (v *HistoryView) selected() *history.Entry {
	r, _ := v.table.GetSelection()
	if r < 1 || r > len(v.entries) {
		return nil
	}
	return &v.entries[len(v.entries)-r]
}

// openDiff shows the selected version's diff.
func (v *HistoryView) openDiff() {
	if e := v.selected(); e != nil {
		v.nav.Push(newDiffView(v.nav, v.row, *e))
	}
}

// Status gives the count and the bounds.
func (v *HistoryView) Status() string {
	return fmt.Sprintf("%d versions  [gray]%s · manager? = not certain[-]", len(v.entries), historyBounds())
}
