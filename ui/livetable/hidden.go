package livetable

import (
	"fmt"
	"slices"

	"kscope/ui/keymap"
	"kscope/watch"
)

// Hidden is a kind of rows a table hides until its key shows them: the objects another screen is the view
// of, which only clutter this one (Helm's release Secrets in a Secrets table: `:helm` shows them). The
// table's title counts the rows hidden and the status line names the key. A plain value.
type Hidden struct {
	// Key shows the rows, and hides them again.
	Key keymap.KeyDef
	// What names the rows ("Helm release Secrets").
	What string
	// Hide tells whether row, a row of a table with columns, is one of them. It must be cheap: it runs on
	// every row at every refresh while the rows are hidden.
	Hide func(columns []watch.Column, row *watch.Row) bool
}

// tableHidden is one Hidden of a table and whether its rows are shown. UI goroutine only.
type tableHidden struct {
	Hidden
	shown bool
	count int // rows hidden at the last refresh
}

// SetHidden sets the kinds of rows the table hides (until each one's key shows them); the app sets them once,
// before the table is first shown.
func (t *Table) SetHidden(hs []Hidden) {
	t.hidden = t.hidden[:0]
	for _, h := range hs {
		t.hidden = append(t.hidden, &tableHidden{Hidden: h})
	}
}

// HiddenBindings are the keys that show or hide each kind of hidden rows.
func (t *Table) HiddenBindings() []keymap.Binding {
	var out []keymap.Binding
	for _, h := range t.hidden {
		out = append(out, h.Key.Bind(func() {
			h.shown = !h.shown
			t.refresh()
		}))
	}
	return out
}

// hide removes from rows those the hidden kinds not shown take, counting them; rows is not modified.
func (t *Table) hide(rows []*watch.Row) []*watch.Row {
	hiding := false
	for _, h := range t.hidden {
		h.count = 0
		hiding = hiding || !h.shown
	}
	if !hiding {
		return rows
	}
	cols := t.src.Columns()
	return slices.DeleteFunc(slices.Clone(rows), func(r *watch.Row) bool {
		for _, h := range t.hidden {
			if !h.shown && h.Hide(cols, r) {
				h.count++
				return true
			}
		}
		return false
	})
}

// hiddenKeep is keep (the rows a deleted row must match to stay dimmed) without the hidden ones.
func (t *Table) hiddenKeep(keep func(*watch.Row) bool) func(*watch.Row) bool {
	if len(t.hidden) == 0 {
		return keep
	}
	cols := t.src.Columns()
	return func(r *watch.Row) bool {
		for _, h := range t.hidden {
			if !h.shown && h.Hide(cols, r) {
				return false
			}
		}
		return keep(r)
	}
}

// hiddenTitle counts the rows hidden, for the title ("" when none are).
func (t *Table) hiddenTitle() string {
	out := ""
	for _, h := range t.hidden {
		if !h.shown && h.count > 0 {
			out += fmt.Sprintf("[gray::-]<%d hidden> ", h.count)
		}
	}
	return out
}

// hiddenNote says, for the status line, what is hidden and which key shows it ("" when nothing is).
func (t *Table) hiddenNote() string {
	out := ""
	for _, h := range t.hidden {
		switch {
		case !h.shown && h.count > 0:
			out += fmt.Sprintf("  [gray]%d %s hidden (%s: show)[-]", h.count, h.What, h.Key.Key.Label)
		case h.shown:
			out += fmt.Sprintf("  [gray]%s shown (%s: hide)[-]", h.What, h.Key.Key.Label)
		}
	}
	return out
}
