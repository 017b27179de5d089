package versions

import (
	"fmt"
	"strings"

	"github.com/rivo/tview"

	"kscope/history"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/theme"
	"kscope/watch"
)

// diffContext is how many unchanged lines a diff shows around each change; longer runs are folded.
const diffContext = 3

// DiffView shows one version's changes from the version before it: for a full version, the YAML lines
// removed (red) and added (green) with unchanged runs folded; for a row version, the cells. UI goroutine
// only.
type DiffView struct {
	ui.BaseScreen
	nav    ui.Navigator
	row    *watch.Row
	entry  history.Entry
	text   *tview.TextView
	reveal bool
}

// newDiffView returns the diff of e, a version of row.
func newDiffView(nav ui.Navigator, row *watch.Row, e history.Entry) *DiffView {
	v := &DiffView{nav: nav, row: row, entry: e}
	v.text = tview.NewTextView().SetDynamicColors(true).SetWrap(false)
	v.text.SetBorder(true)
	return v
}

func (v *DiffView) Crumb() string              { return "diff " + v.entry.RV }
func (v *DiffView) Primitive() tview.Primitive { return v.text }
func (v *DiffView) Close()                     {}
func (v *DiffView) Activate()                  { v.render() }

// Bindings are the diff view's keys.
func (v *DiffView) Bindings() []keymap.Binding {
	return []keymap.Binding{
		v.nav.HelpBinding(),
		keymap.Keys.Versions.Reveal.Bind(func() { v.reveal = !v.reveal; v.render() }),
		v.nav.QuitBinding(),
	}
}

// render writes the diff.
func (v *DiffView) render() {
	e := v.entry
	from := "nothing earlier"
	var body string
	switch {
	case e.Obj != nil:
		var old string
		if e.PrevObj != nil {
			from = e.PrevObj.Obj.GetResourceVersion()
			var err error
			if old, err = ui.RenderYAML(e.PrevObj.Obj, false, v.reveal); err != nil {
				v.nav.Errorf("%s", err.Error())
				return
			}
		}
		cur, err := ui.RenderYAML(e.Obj.Obj, false, v.reveal)
		if err != nil {
			v.nav.Errorf("%s", err.Error())
			return
		}
		body = theme.DiffMarkup(history.FoldDiff(history.DiffLines(history.TextLines(old), history.TextLines(cur)), diffContext))
	case e.Row != nil:
		if e.PrevRow != nil {
			from = e.PrevRow.ResourceVersion
		}
		body = theme.DiffMarkup(rowDiff(e.PrevRow, e.Row, e.Columns))
	case e.Feed != nil:
		body = tview.Escape(e.Summary(v.nav.Width())) + "\n[gray]no version of the object is kept to compare: its YAML view (y) keeps the versions it sees[-]"
	}
	who := ""
	if w, sure, ok := e.Writer(); ok {
		who = w.Name() + " (" + w.Operation + ")"
		if !sure {
			who += "?"
		}
	}
	v.text.SetTitle(fmt.Sprintf(" [aqua::b]diff[white] %s  %s → %s  %s ", tview.Escape(v.row.Key),
		tview.Escape(orDash(from)), tview.Escape(orDash(e.RV)), tview.Escape(who)))
	v.text.SetText(body)
	v.nav.UpdateStatus(v)
}

// Status names the colours.
func (v *DiffView) Status() string {
	return "[red]- removed[-]  [green]+ added[-]  [gray]⋯ unchanged lines folded[-]"
}

// orDash returns s, or "—" for "".
func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// rowDiff is the diff of two versions of a row, a line per cell ("NAME: value"); old nil shows b's cells.
func rowDiff(a, b *watch.Row, cols []watch.Column) []history.FoldedLine {
	var out []history.FoldedLine
	for i := range b.Cells {
		name := fmt.Sprintf("#%d", i+1)
		if i < len(cols) {
			name = strings.ToUpper(cols[i].Name)
		}
		cur := name + ": " + b.Cells[i]
		if a == nil || history.CellAt(a, i) == b.Cells[i] {
			out = append(out, history.FoldedLine{DiffLine: history.DiffLine{Op: history.DiffSame, Text: cur}})
			continue
		}
		out = append(out, history.FoldedLine{DiffLine: history.DiffLine{Op: history.DiffRemoved, Text: name + ": " + history.CellAt(a, i)}},
			history.FoldedLine{DiffLine: history.DiffLine{Op: history.DiffAdded, Text: cur}})
	}
	return out
}
