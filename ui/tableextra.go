package ui

import (
	"slices"

	"kscope/watch"
)

// tableExtra joins a table's own columns, each with cells of its own, into the one watch.Extra the table
// shows and sorts by: HEALTH while it is on, then the metrics while they are shown. The joined Extra gets a
// new, greater Version whenever a part changes. UI goroutine only.
type tableExtra struct {
	health, metrics *watch.Extra // the parts joined last
	joined          *watch.Extra
	version         uint64
}

// extra returns the table's own columns and cells (nil for none). UI goroutine.
func (t *LiveTable) extra() *watch.Extra {
	h, m := t.health.cellsOf(), t.metrics.cells()
	e := &t.extras
	if h == e.health && m == e.metrics {
		return e.joined
	}
	e.health, e.metrics = h, m
	parts := slices.DeleteFunc([]*watch.Extra{h, m}, func(p *watch.Extra) bool { return p == nil })
	if len(parts) == 0 {
		e.joined = nil
		return nil
	}
	e.version++
	joined := *parts[0]
	joined.Version, joined.More = e.version, nil
	if len(parts) > 1 {
		joined.More = parts[1]
	}
	e.joined = &joined
	return e.joined
}

// columns returns the table's columns: the server's, then its own (HEALTH, the metrics) while they are
// shown. UI goroutine.
func (t *LiveTable) columns() []watch.Column {
	cols := t.src.Columns()
	if e := t.extra(); e != nil {
		return append(slices.Clip(cols), e.AllColumns()...)
	}
	return cols
}
