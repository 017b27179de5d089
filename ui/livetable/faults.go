package livetable

import (
	"fmt"
	"strconv"
	"strings"

	"kscope/health"
	"kscope/ui/keymap"
	"kscope/watch"
)

// The fault filter (Keys.Table.Faults, k9s's ctrl-z on pods, here for every kind) keeps only the rows that are
// not healthy, on top of the text filter, and follows them live: it is a predicate the table applies to every
// snapshot it takes (refresh), so that a row turning healthy leaves at the next refresh and one turning faulty
// comes in.
//
//   - A pods table with the server's columns decides from its cells as k9s does (podFaulty): STATUS, RESTARTS
//     and READY x/y.
//   - Every other table (and a pods table of custom columns) decides from kstatus, which its HEALTH column
//     computes: the filter turns the column on while it is on (and off again with it, unless the user had it
//     on already), and the status line says so. Until the column has listed the objects, no row is known to be
//     faulty, and the status line says the health is being listed.
//   - A table of several kinds has neither: the filter is refused there, on the prompt line.

// tableFaults is a table's fault filter. UI goroutine only.
type tableFaults struct {
	t  *Table
	on bool
	// healthOurs is set when turning the filter on turned the HEALTH column on.
	healthOurs bool
}

// toggle turns the filter on or off and refreshes the table.
func (f *tableFaults) toggle() {
	t := f.t
	if !f.on {
		if _, ok := t.src.(kindedSource); ok {
			t.host.Errorf("faults: %s", "not available in a table of several kinds: open one kind (:deploy)")
			return
		}
		f.on = true
		if h := f.health(); h != nil && !f.byCells() && !h.on() {
			h.startOrSay()
			f.healthOurs = h.on()
		}
	} else {
		f.on = false
		if h := f.health(); h != nil && f.healthOurs && h.on() {
			h.stop()
		}
		f.healthOurs = false
	}
	t.refresh()
}

// health is the table's HEALTH column provider (nil for none).
func (f *tableFaults) health() *tableHealth {
	for _, p := range f.t.providers {
		if h, ok := p.(*tableHealth); ok {
			return h
		}
	}
	return nil
}

// byCells tells whether the table decides from its own cells (a pods table with the server's STATUS).
func (f *tableFaults) byCells() bool {
	_, ok := f.podColumns()
	return ok
}

// podCols are the indexes of a pods table's STATUS, RESTARTS and READY cells (-1: absent).
type podCols struct{ status, restarts, ready int }

// podColumns finds the cells the pod rule reads; ok is false for a table that is not of pods or lacks STATUS.
func (f *tableFaults) podColumns() (podCols, bool) {
	t := f.t
	if t.res.Group != "" || t.res.Name != "pods" {
		return podCols{}, false
	}
	c := podCols{-1, -1, -1}
	for i, col := range t.src.Columns() {
		switch strings.ToUpper(col.Name) {
		case "STATUS":
			c.status = i
		case "RESTARTS":
			c.restarts = i
		case "READY":
			c.ready = i
		}
	}
	return c, c.status >= 0
}

// keep returns the filter's predicate over the table's rows, nil while off.
func (f *tableFaults) keep() func(*watch.Row) bool {
	if !f.on {
		return nil
	}
	if c, ok := f.podColumns(); ok {
		return func(r *watch.Row) bool {
			return podFaulty(cell(r, c.status), cell(r, c.restarts), cell(r, c.ready))
		}
	}
	var cells map[string][]string
	if h := f.health(); h != nil {
		cells = h.byKey
	}
	return func(r *watch.Row) bool {
		c := cells[r.Key]
		return len(c) == 1 && c[0] != string(health.Current)
	}
}

// cell is r's cell i ("" when there is none).
func cell(r *watch.Row, i int) string {
	if i < 0 || i >= len(r.Cells) {
		return ""
	}
	return r.Cells[i]
}

// podFaulty is the pod rule, from the cells of the server's pods table as kubectl prints them: a pod is
// faulty unless its STATUS is Running or Completed (Succeeded), and a Running one is faulty with restarts
// ("2 (5m ago)") or fewer ready containers than it has (READY "1/2"). Pure.
func podFaulty(status, restarts, ready string) bool {
	switch status {
	case "Completed", "Succeeded":
		return false
	case "Running":
	default:
		return true
	}
	if n, err := strconv.Atoi(strings.Fields(restarts + " 0")[0]); err == nil && n > 0 {
		return true
	}
	if have, want, ok := strings.Cut(ready, "/"); ok && have != want {
		return true
	}
	return false
}

// statusNote is the filter's note on the status line ("" while off).
func (f *tableFaults) statusNote() string {
	if !f.on {
		return ""
	}
	note := fmt.Sprintf("  [red]faults: %d of %d[-]", f.t.shown, f.t.total)
	switch h := f.health(); {
	case f.byCells():
	case h == nil || !h.on():
		note += " [yellow](by kstatus: needs the HEALTH column, " + keymap.Keys.Health.Column.Key.Label + ")[-]"
	case f.healthOurs:
		note += " [gray](HEALTH on for the filter)[-]"
	}
	return note
}
