package livetable

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/apierr"
	"kscope/ui/keymap"
	"kscope/watch"
)

// placeholder says why the table has no rows.
func (t *Table) placeholder(snap watch.Snapshot) (string, tcell.Color) {
	st := t.src.State()
	switch {
	case st.Phase == watch.Listing:
		return "listing " + t.objects() + " …", t.host.Theme().Dim
	case st.Phase.Terminal() && st.Phase != watch.Stopped:
		msg := st.Message
		if msg == "" && st.Err != nil {
			msg = st.Err.Error()
		}
		return st.Phase.String() + ": " + apierr.OneLine(msg), t.host.Theme().ErrorColor
	case snap.Total > 0 && t.faults.on:
		return "no faulty " + t.objects() + " (" + keymap.Keys.Table.Faults.Key.Label + " shows all)", t.host.Theme().Dim
	case snap.Total > 0:
		return "no rows match the filter (esc clears it)", t.host.Theme().Dim
	}
	return "no " + t.objects() + " here", t.host.Theme().Dim
}

// updateTitle shows the resource, its namespaces, the rows shown, the list's progress and the filter.
func (t *Table) updateTitle() {
	spec := t.src.Spec()
	scope := ""
	many, isMany := t.src.(interface{ Namespaces() []string })
	switch {
	case t.fixed:
	case isMany:
		scope = "(" + strings.Join(many.Namespaces(), ",") + ")"
	case spec.AllNamespaces():
		scope = "(all)"
	case spec.Namespaced:
		scope = "(" + spec.Namespace + ")"
	}
	th := t.host.Theme()
	title := fmt.Sprintf(" %s%s%s%s[%d] ", th.Title, tview.Escape(t.title), tview.Escape(scope), th.Counter, t.shown)
	if st := t.src.State(); st.Phase == watch.Listing && st.Expected > 0 {
		// The first list arrives in pages: say how much of it is in, so that a partial table is never
		// taken for the whole one.
		title += fmt.Sprintf("[yellow::-]listing %d of %d… ", t.total, st.Expected)
	}
	if f := t.query.Filter.String(); f != "" {
		title += fmt.Sprintf("%s</%s> ", th.Filter, tview.Escape(f))
	}
	if t.faults.on {
		title += "[red::-]<faults> "
	}
	title += t.hiddenTitle()
	title += t.marksTitle()
	t.table.SetTitle(title)
}

// Status is the sync state, row counts, sort, last error and note, the keys the server refuses, the pulse and
// the columns' notes, for the status line.
func (t *Table) Status() string {
	st := t.src.State()
	color := "green"
	if st.Phase != watch.Synced {
		color = "yellow"
	}
	if st.Phase.Terminal() && st.Phase != watch.Stopped {
		color = "red"
	}
	text := fmt.Sprintf("[%s]%s[-]  %d/%d", color, st.Phase, t.shown, t.total)
	if cols := t.columns(); t.query.SortColumn >= 0 && t.query.SortColumn < len(cols) {
		dir := "↑"
		if t.query.Descending {
			dir = "↓"
		}
		text += "  sort:" + tview.Escape(strings.ToUpper(cols[t.query.SortColumn].Name)) + dir
	}
	if st.Err != nil || st.Message != "" {
		msg := st.Message
		if msg == "" {
			msg = st.Err.Error()
		}
		text += "  " + t.host.Theme().ErrorTag + tview.Escape(apierr.OneLine(msg)) + "[-]"
	}
	if st.Note != "" {
		text += "  [yellow]" + tview.Escape(apierr.OneLine(st.Note)) + "[-]"
	}
	// what the server refuses here comes before the pulse and the columns' notes, which a narrow screen cuts
	text += t.host.StatusNote()
	if t.pulse == "" {
		t.pulse = pulseNote(t.src)
	}
	if t.pulse != "" {
		text += "  [gray]" + t.pulse + "[-]"
	}
	text += t.faults.statusNote()
	text += t.hiddenNote()
	for _, p := range t.providers {
		text += p.statusNote(st)
	}
	return text
}
