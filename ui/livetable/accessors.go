package livetable

import (
	"context"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// Resource is the table's resource (a union one, named after its kinds, for a table of several kinds).
func (t *Table) Resource() discovery.Resource { return t.res }

// Source is the table's current source (a namespace switch replaces it).
func (t *Table) Source() cluster.RowSource { return t.src }

// Title is the table's title ("pods", "events(web-1)"), as the crumbs show it.
func (t *Table) Title() string { return t.title }

// Query is the table's sort and filter.
func (t *Table) Query() watch.Query { return t.query }

// Rows are the rows shown, in order, the rows deleted moments ago (dimmed) among them.
func (t *Table) Rows() []*watch.Row { return t.content.Rows() }

// SelectedKey is the key of the row under the cursor, or "".
func (t *Table) SelectedKey() string { return t.selectedKey() }

// SelectWhenShown selects the row with key as soon as it appears (the owner a key jumped to); once.
func (t *Table) SelectWhenShown(key string) { t.selectKey = key }

// KeepNamespace keeps the table in its namespace when the user switches (the events or pods of one object).
func (t *Table) KeepNamespace() { t.fixed = true }

// ShownCells are row's cells as the table shows them, by column name (every column, wide and own ones too).
func (t *Table) ShownCells(row *watch.Row) map[string]string {
	c := t.content
	cols := map[string]string{}
	for idx, col := range c.columns {
		cols[col.Name] = c.shownText(row, idx)
	}
	return cols
}

// whenSettled calls Host.Settle once settled is closed, unless ctx ends first (the table closed). It blocks:
// run it on a goroutine of its own.
func (t *Table) whenSettled(ctx context.Context, settled <-chan struct{}) {
	select {
	case <-ctx.Done():
	case <-settled:
		t.host.Settle()
	}
}

// HealthSource is the source of the table's HEALTH column while the column is on (nil while off): for tests
// and diagnostics.
func (t *Table) HealthSource() cluster.RowSource {
	for _, p := range t.providers {
		if h, ok := p.(*tableHealth); ok {
			return h.src
		}
	}
	return nil
}

// MetricsPolled is closed when the table's latest metrics poll has returned (its source stopped or the table
// closed); nil for a table without metrics or before its poll started: for tests and diagnostics.
func (t *Table) MetricsPolled() <-chan struct{} {
	for _, p := range t.providers {
		if m, ok := p.(*tableMetrics); ok && m.done != nil {
			return m.done
		}
	}
	return nil
}

// Host is the host the table was made with (New).
func (t *Table) Host() Host { return t.host }

// Refresh takes the source's changes and a new snapshot now, keeping the selection on its object (the table
// does so itself at each notification of its source).
func (t *Table) Refresh() { t.refresh() }

// Tick is what the table does once a tick while on top (its loop calls it): flashes expire, and it redraws
// when the status or an AGE on screen changed.
func (t *Table) Tick() { t.tick() }

// Shown is how many live rows the table shows (deleted ones excluded).
func (t *Table) Shown() int { return t.shown }

// Selected is the row under the cursor (nil for none); ghost when it was deleted moments ago (dimmed).
func (t *Table) Selected() (row *watch.Row, ghost bool) {
	r, _ := t.table.GetSelection()
	return t.content.RowAt(r)
}

// Row is the row with key as the table shows it (nil when it does not); ghost when it was deleted moments ago.
func (t *Table) Row(key string) (row *watch.Row, ghost bool) {
	return t.content.RowAt(t.content.IndexOf(key))
}
