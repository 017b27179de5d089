package rollouts

import (
	"context"
	"fmt"

	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/verbs"
	"kscope/watch"
)

// View lists the revisions of one workload. UI goroutine only.
type View struct {
	ui.BaseScreen
	nav   ui.Navigator
	res   discovery.Resource
	row   *watch.Row
	guard ui.WriteGuard
	table *tview.Table
	// revs are the revisions shown, oldest first (nil until read), uid the workload's as read; err why they
	// could not be read.
	revs    []cluster.Revision
	uid     string
	err     error
	loading bool
}

// New returns the rollouts screen of row, a deployment, statefulset or daemonset (res); guard checks an undo
// before it is asked. Spec's object key opens it.
func New(nav ui.Navigator, res discovery.Resource, row *watch.Row, guard ui.WriteGuard) ui.Screen {
	v := &View{nav: nav, res: res, row: row, guard: guard,
		table: tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
	v.table.SetBorder(true)
	v.table.SetSelectedStyle(nav.Theme().Cursor)
	v.render()
	return v
}

func (v *View) Crumb() string              { return "rollouts" }
func (v *View) Primitive() tview.Primitive { return v.table }
func (v *View) Close()                     {}

// Activate reads the revisions again (a rollout may have happened since the screen was last on top).
func (v *View) Activate() { v.load() }

// load reads the revisions off the UI goroutine, then shows them.
func (v *View) load() {
	if v.loading {
		return
	}
	v.loading = true
	v.render()
	c := v.nav.Cluster()
	v.nav.Go(func() {
		ctx, cancel := context.WithTimeout(v.nav.Context(), ui.RequestTimeout)
		defer cancel()
		revs, uid, err := c.Revisions(ctx, v.res.GVR(), v.row.Namespace, v.row.Name)
		v.nav.Update(func() {
			first := v.revs == nil
			v.loading = false
			v.revs, v.uid, v.err = revs, string(uid), err
			if first { // (a draw while reading selected the first row)
				v.table.Select(0, 0)
			}
			v.render()
			v.nav.UpdateStatus(v)
		})
	})
}

// Bindings: the selected revision's diff, undo to it (checked by the guard), help, quit.
func (v *View) Bindings() []keymap.Binding {
	return []keymap.Binding{
		v.nav.HelpBinding(),
		keys.Diff.Bind(v.diffSelected),
		keys.Undo.Bind(v.undoSelected).WithDenied(v.guard.Denied),
		v.nav.QuitBinding(),
	}
}

// Status counts the revisions, names the keys the server refuses, or says why they could not be read.
func (v *View) Status() string {
	if v.err != nil {
		return fmt.Sprintf("[red]%s[-]", tview.Escape(v.err.Error()))
	}
	return fmt.Sprintf("%d revisions of %s %s", len(v.revs), tview.Escape(v.res.Name), tview.Escape(v.row.Key)) +
		verbs.NotPermitted(v.Bindings())
}

// render fills the table, the newest revision last; the selection stays, else (none yet: row 0) is on the
// current revision.
func (v *View) render() {
	theme := v.nav.Theme()
	row, _ := v.table.GetSelection()
	v.table.Clear()
	v.table.SetTitle(fmt.Sprintf(" %srollouts%s(%s)[%d] ", theme.Title, theme.Counter, tview.Escape(v.row.Key), len(v.revs)))
	for c, title := range []string{"REVISION", "CHANGE-CAUSE", "AGE", "IMAGES"} {
		v.table.SetCell(0, c, tview.NewTableCell(title).SetStyle(theme.Header).SetSelectable(false).SetExpansion(1))
	}
	now := v.nav.Clock().Now()
	for i, r := range v.revs {
		if r.Current && row < 1 {
			row = i + 1
		}
		for c, text := range cells(r, now) {
			v.table.SetCell(i+1, c, tview.NewTableCell(tview.Escape(text)).SetTextColor(theme.RowFg).SetExpansion(1))
		}
	}
	switch n := len(v.revs); {
	case n > 0:
		v.table.Select(min(max(row, 1), n), 0)
	case v.loading:
		v.table.SetCell(1, 0, tview.NewTableCell("reading the revisions …").SetSelectable(false).SetTextColor(theme.Dim))
	case v.err == nil:
		v.table.SetCell(1, 0, tview.NewTableCell("no revisions").SetSelectable(false).SetTextColor(theme.Dim))
	}
}

// selected returns the selected revision, or says there is none.
func (v *View) selected() (cluster.Revision, bool) {
	row, _ := v.table.GetSelection()
	if row < 1 || row > len(v.revs) {
		v.nav.Errorf("no revision selected")
		return cluster.Revision{}, false
	}
	return v.revs[row-1], true
}

// diffSelected pushes the selected revision's template against the current one.
func (v *View) diffSelected() {
	r, ok := v.selected()
	if !ok {
		return
	}
	cur, ok := current(v.revs)
	if !ok {
		v.nav.Errorf("no revision of %s is marked current: nothing to compare with", v.row.Key)
		return
	}
	v.nav.Push(newDiffView(v.nav, v.row, r, cur))
}
