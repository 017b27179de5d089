package containers

import (
	"context"
	"fmt"

	"github.com/rivo/tview"

	"kscope/apierr"
	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/ui/verbs"
	"kscope/watch"
)

// View lists the containers of one pod, live. UI goroutine only.
type View struct {
	ui.BaseScreen
	nav   ui.Navigator
	res   discovery.Resource
	pod   *watch.Row
	keys  []keymap.Binding
	table *tview.Table
	// rows are the containers shown; read tells whether the pod has been read once, deleted whether it
	// is gone, err the watch's last error ("" when none).
	rows    []Row
	read    bool
	deleted bool
	err     string
	life    screenlife.Life // the pod's watch
}

// New returns the containers screen of pod, an object of res (pods): ctr's keys act on the selected
// container. It plays ui.Roles.Containers (Spec).
func New(nav ui.Navigator, res discovery.Resource, pod *watch.Row, ctr ui.ContainerView) ui.Screen {
	v := &View{nav: nav, res: res, pod: pod, table: tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
	v.table.SetBorder(true)
	v.table.SetSelectedStyle(nav.Theme().Cursor)
	if ctr.Keys != nil {
		v.keys = ctr.Keys(v.selected)
	}
	v.render()
	return v
}

// Crumb is containers(POD).
func (v *View) Crumb() string              { return "containers(" + v.pod.Name + ")" }
func (v *View) Primitive() tview.Primitive { return v.table }

// Activate starts following the pod on first show.
func (v *View) Activate() {
	v.life.Start(v.nav, func(ctx context.Context) {
		events := v.nav.Cluster().WatchObject(ctx, v.res.GVR(), v.pod.Namespace, v.pod.Name)
		v.life.Go(func(context.Context) {
			for ev := range events {
				v.life.Update(func() {
					v.apply(ev)
					v.nav.UpdateStatus(v)
				})
			}
		})
	})
}

// Close stops following the pod.
func (v *View) Close() { v.life.Stop() }

// Bindings: help, the container keys, quit.
func (v *View) Bindings() []keymap.Binding {
	return append(append([]keymap.Binding{v.nav.HelpBinding()}, v.keys...), v.nav.QuitBinding())
}

// Status counts the containers, or says the pod is gone or why it cannot be read; and which container keys
// the server refuses.
func (v *View) Status() string {
	text := fmt.Sprintf("%d containers", len(v.rows))
	switch {
	case v.deleted:
		text = "[red]pod " + tview.Escape(v.pod.Name) + " was deleted[-]"
	case v.err != "":
		text = "[red]" + tview.Escape(v.err) + "[-]"
	}
	return text + verbs.NotPermitted(v.keys)
}

// apply takes one state of the pod's watch.
func (v *View) apply(ev watch.ObjectEvent) {
	switch {
	case ev.Err != nil:
		v.err = apierr.OneLine(ev.Err.Error())
	case ev.Deleted:
		v.deleted = true
	case ev.Object != nil:
		pod, err := PodFrom(ev.Object)
		if err != nil {
			v.err = err.Error()
			break
		}
		v.rows, v.read, v.deleted, v.err = Rows(pod), true, false, ""
	}
	v.render()
}

// render fills the table, the selection kept on the same container.
func (v *View) render() {
	theme := v.nav.Theme()
	selected := ""
	if r, _ := v.table.GetSelection(); r >= 1 && r <= v.table.GetRowCount()-1 {
		selected = v.table.GetCell(r, 0).Text
	}
	v.table.Clear()
	v.table.SetTitle(fmt.Sprintf(" %scontainers(%s)%s[%d] ", theme.Title, tview.Escape(v.pod.Name), theme.Counter, len(v.rows)))
	for c, title := range Headers {
		v.table.SetCell(0, c, tview.NewTableCell(title).SetStyle(theme.Header).SetSelectable(false).SetExpansion(1))
	}
	at := 1
	for i, r := range v.rows {
		color := theme.RowFg
		if v.deleted {
			color = theme.Dim
		}
		for c, text := range r.Cells() {
			v.table.SetCell(i+1, c, tview.NewTableCell(tview.Escape(text)).SetTextColor(color).SetExpansion(1))
		}
		if tview.Escape(r.Name) == selected {
			at = i + 1
		}
	}
	switch {
	case len(v.rows) > 0:
		v.table.Select(at, 0)
	case !v.read && v.err == "":
		v.table.SetCell(1, 0, tview.NewTableCell("reading pod "+tview.Escape(v.pod.Name)+" …").SetSelectable(false).SetTextColor(theme.Dim))
	}
}

// selected is the name of the selected container; false (said on the prompt line) when there is none or
// the pod is gone.
func (v *View) selected() (string, bool) {
	r, _ := v.table.GetSelection()
	switch {
	case v.deleted:
		v.nav.Errorf("pod %s was deleted", v.pod.Name)
		return "", false
	case r < 1 || r > len(v.rows):
		v.nav.Errorf("no container selected")
		return "", false
	}
	return v.rows[r-1].Name, true
}
