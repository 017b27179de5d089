package contexts

import (
	"fmt"

	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/ui"
	"kscope/ui/keymap"
)

// View lists the kubeconfig's contexts. UI goroutine only.
type View struct {
	ui.BaseScreen
	nav   ui.Navigator
	list  func() ([]cluster.KubeContext, error)
	use   func(name string)
	table *tview.Table
	// contexts are the rows shown (nil until read); err why they could not be read.
	contexts []cluster.KubeContext
	err      error
	loading  bool
}

// New returns the contexts screen: list reads the kubeconfig's contexts (off the UI goroutine), use switches
// to one (on it). It plays ui.Roles.Contexts (Spec).
func New(nav ui.Navigator, list func() ([]cluster.KubeContext, error), use func(name string)) ui.Screen {
	v := &View{nav: nav, list: list, use: use, table: tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
	v.table.SetBorder(true)
	v.table.SetSelectedStyle(nav.Theme().Cursor)
	v.render()
	return v
}

func (v *View) Crumb() string              { return "contexts" }
func (v *View) Primitive() tview.Primitive { return v.table }
func (v *View) Close()                     {}

// Activate reads the contexts again (the kubeconfig may have changed since the screen was last on top).
func (v *View) Activate() {
	if v.loading {
		return
	}
	v.loading = true
	v.render()
	v.nav.Go(func() {
		contexts, err := v.list()
		v.nav.Update(func() {
			v.loading = false
			v.contexts, v.err = contexts, err
			v.render()
			v.nav.UpdateStatus(v)
		})
	})
}

// Bindings: switch to the selected context, help, quit.
func (v *View) Bindings() []keymap.Binding {
	return []keymap.Binding{
		v.nav.HelpBinding(),
		keymap.Keys.Contexts.Use.Bind(v.useSelected),
		v.nav.QuitBinding(),
	}
}

// Status names the current context, or says why the contexts could not be read.
func (v *View) Status() string {
	if v.err != nil {
		return fmt.Sprintf("[red]%s[-]", tview.Escape(v.err.Error()))
	}
	return fmt.Sprintf("%d contexts  current: %s", len(v.contexts), tview.Escape(v.nav.Cluster().Info().Context))
}

// render fills the table, the current context marked (*) and selected when nothing else was.
func (v *View) render() {
	theme := v.nav.Theme()
	current := v.nav.Cluster().Info().Context
	row, _ := v.table.GetSelection()
	v.table.Clear()
	v.table.SetTitle(fmt.Sprintf(" %scontexts%s[%d] ", theme.Title, theme.Counter, len(v.contexts)))
	for c, title := range []string{"NAME", "CLUSTER", "USER", "NAMESPACE", "READ-ONLY"} {
		v.table.SetCell(0, c, tview.NewTableCell(title).SetStyle(theme.Header).SetSelectable(false).SetExpansion(1))
	}
	for i, k := range v.contexts {
		name, color := k.Name, theme.RowFg
		if k.Name == current {
			name += "(*)"
			if row < 1 {
				row = i + 1
			}
		}
		readOnly := ""
		if k.ReadOnly {
			readOnly = "yes"
		}
		for c, text := range []string{name, k.Cluster, k.User, k.Namespace, readOnly} {
			v.table.SetCell(i+1, c, tview.NewTableCell(tview.Escape(text)).SetTextColor(color).SetExpansion(1))
		}
	}
	switch n := len(v.contexts); {
	case n > 0:
		v.table.Select(min(max(row, 1), n), 0)
	case v.loading:
		v.table.SetCell(1, 0, tview.NewTableCell("reading the kubeconfig …").SetSelectable(false).SetTextColor(theme.Dim))
	case v.err == nil:
		v.table.SetCell(1, 0, tview.NewTableCell("the kubeconfig has no contexts").SetSelectable(false).SetTextColor(theme.Dim))
	}
}

// useSelected switches to the selected context; on the current one it only says so.
func (v *View) useSelected() {
	row, _ := v.table.GetSelection()
	if row < 1 || row > len(v.contexts) {
		v.nav.Errorf("no context selected")
		return
	}
	name := v.contexts[row-1].Name
	if name == v.nav.Cluster().Info().Context {
		v.nav.Message("already in context " + name)
		return
	}
	v.use(name)
}
