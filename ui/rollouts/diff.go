package rollouts

import (
	"fmt"

	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/theme"
	"kscope/watch"
)

// diffContext is how many unchanged lines a diff shows around each change; longer runs are folded.
const diffContext = 3

// DiffView shows the pod template of a revision against the current one's: what an undo to it would change
// (lines removed red, added green, unchanged runs folded). UI goroutine only.
type DiffView struct {
	ui.BaseScreen
	nav       ui.Navigator
	row       *watch.Row
	rev, curr cluster.Revision
	text      *tview.TextView
}

// newDiffView returns the diff from cur, the current revision of row, to rev.
func newDiffView(nav ui.Navigator, row *watch.Row, rev, cur cluster.Revision) *DiffView {
	v := &DiffView{nav: nav, row: row, rev: rev, curr: cur}
	v.text = tview.NewTextView().SetDynamicColors(true).SetWrap(false)
	v.text.SetBorder(true)
	return v
}

func (v *DiffView) Crumb() string              { return fmt.Sprintf("diff %d", v.rev.Number) }
func (v *DiffView) Primitive() tview.Primitive { return v.text }
func (v *DiffView) Close()                     {}
func (v *DiffView) Activate()                  { v.render() }

// Bindings: help, quit.
func (v *DiffView) Bindings() []keymap.Binding {
	return []keymap.Binding{v.nav.HelpBinding(), v.nav.QuitBinding()}
}

// Status names the colours.
func (v *DiffView) Status() string {
	return "[red]- current[-]  [green]+ revision " + fmt.Sprint(v.rev.Number) + "[-]  [gray]⋯ unchanged lines folded[-]"
}

// render writes the diff.
func (v *DiffView) render() {
	v.text.SetTitle(fmt.Sprintf(" [aqua::b]diff[white] %s  revision %d (current) → %d ", tview.Escape(v.row.Key), v.curr.Number, v.rev.Number))
	if v.rev.Number == v.curr.Number {
		v.text.SetText("[gray]revision " + fmt.Sprint(v.rev.Number) + " is the current one: no difference[-]")
		return
	}
	lines, err := templateDiff(v.curr.Template, v.rev.Template, diffContext)
	if err != nil {
		v.nav.Errorf("diff of revision %d: %s", v.rev.Number, err)
		return
	}
	v.text.SetText(theme.DiffMarkup(lines))
}
