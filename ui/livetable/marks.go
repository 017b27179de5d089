package livetable

import (
	"fmt"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// marks are the rows the user marked (space, ctrl-space, *), by row key: they survive refreshes, sorts and
// filters, and a row deleted leaves them. The object verbs and the plugins act on the marked rows the
// table shows (Marked). UI goroutine only.
type marks struct {
	keys map[string]bool
	// last is the key of the row marked last: where a range (ctrl-space) starts.
	last string
}

// set returns the marked keys, made on first use (RowContent reads the same map).
func (m *marks) set() map[string]bool {
	if m.keys == nil {
		m.keys = map[string]bool{}
	}
	return m.keys
}

// forget drops the marks of the rows deleted.
func (m *marks) forget(deleted []*watch.Row) {
	for _, r := range deleted {
		delete(m.keys, r.Key)
	}
}

// MarkBindings are the keys that mark rows: space (the selected row, again: unmark), ctrl-space (the rows
// from the last one marked to the selected one), ctrl-\ (unmark all), * (every row shown).
func (t *Table) MarkBindings() []keymap.Binding {
	return []keymap.Binding{
		keymap.Keys.Table.Mark.Bind(t.toggleMark),
		keymap.Keys.Table.MarkRange.Bind(t.markRange),
		keymap.Keys.Table.MarkClear.Bind(t.ClearMarks),
		keymap.Keys.Table.MarkAll.Bind(t.MarkAll),
	}
}

// toggleMark marks the selected live row, or unmarks it when it is marked.
func (t *Table) toggleMark() {
	r, _ := t.table.GetSelection()
	row, ghost := t.content.RowAt(r)
	switch {
	case row == nil:
		return
	case ghost:
		t.host.Errorf("%s was deleted", row.Name)
		return
	}
	keys := t.marks.set()
	if keys[row.Key] {
		delete(keys, row.Key)
	} else {
		keys[row.Key] = true
		t.marks.last = row.Key
	}
	t.updateTitle()
}

// markRange marks the live rows from the last one marked to the selected one, both included (the selected
// one alone when the last one marked is not shown).
func (t *Table) markRange() {
	to, _ := t.table.GetSelection()
	if row, _ := t.content.RowAt(to); row == nil {
		return
	}
	from := to
	if i := t.content.IndexOf(t.marks.last); t.marks.last != "" && i > 0 {
		from = i
	}
	keys := t.marks.set()
	for i := min(from, to); i <= max(from, to); i++ {
		if row, ghost := t.content.RowAt(i); !ghost {
			keys[row.Key] = true
		}
	}
	if row, ghost := t.content.RowAt(to); !ghost {
		t.marks.last = row.Key
	}
	t.updateTitle()
}

// MarkAll marks every live row shown: under a filter, only the rows it shows.
func (t *Table) MarkAll() {
	keys := t.marks.set()
	for i, row := range t.content.Rows() {
		if _, ghost := t.content.RowAt(i + 1); !ghost {
			keys[row.Key] = true
		}
	}
	t.updateTitle()
}

// ClearMarks unmarks every row.
func (t *Table) ClearMarks() {
	clear(t.marks.keys)
	t.marks.last = ""
	t.updateTitle()
}

// Marked are the marked rows the table shows, live, in the order shown (nil for none): what the verbs act
// on instead of the selected row. A marked row the filter hides stays marked but is not among them.
func (t *Table) Marked() []*watch.Row {
	if len(t.marks.keys) == 0 {
		return nil
	}
	var out []*watch.Row
	for i, row := range t.content.Rows() {
		if t.marks.keys[row.Key] {
			if _, ghost := t.content.RowAt(i + 1); !ghost {
				out = append(out, row)
			}
		}
	}
	return out
}

// RowKind is row's resource and row as that resource's (in a table of several kinds, the row's own kind).
func (t *Table) RowKind(row *watch.Row) (discovery.Resource, *watch.Row) { return t.rowKind(row) }

// marksTitle is the title's part about the marks: how many rows shown are marked, and how many marked ones
// the filter hides ("" without marks).
func (t *Table) marksTitle() string {
	if len(t.marks.keys) == 0 {
		return ""
	}
	shown := len(t.Marked())
	text := fmt.Sprintf("%s%d marked ", t.host.Theme().Counter, shown)
	if hidden := len(t.marks.keys) - shown; hidden > 0 {
		text += fmt.Sprintf("(%d hidden by the filter) ", hidden)
	}
	return text
}
