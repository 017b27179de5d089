package livetable

import (
	"context"

	"kscope/cluster"
	"kscope/ui/keymap"
	"kscope/watch"
)

// columnProvider gives a live table columns of its own, with cells by row key: HEALTH while its key has it
// on (tableHealth), the CPU and memory of a pods or nodes table (tableMetrics). Each has its own keys, its own
// life over the table's source, and its note on the status line; the table joins their cells, in the order of
// its providers, into the one watch.Extra it shows and sorts by (tableExtra). UI goroutine only.
type columnProvider interface {
	// cells returns the provider's columns and cells now (nil for none): a new pointer whenever they changed.
	cells() *watch.Extra
	// bindings returns the provider's keys in the table (none: nil).
	bindings() []keymap.Binding
	// started tells that the table started (again) over src, until ctx ends: first shown, or restarted in
	// another namespace.
	started(ctx context.Context, src cluster.RowSource)
	// synced tells that a refresh found the current source synced, once per source: what would compete with
	// the table's own first list starts now.
	synced()
	// stopped tells that the table's source stopped (the table closed, or replaced it): what the provider
	// runs for that source ends.
	stopped()
	// statusNote is the provider's note on the status line ("" for none), given the state of the table's
	// source.
	statusNote(st watch.State) string
}

// columnProviders returns the providers of t: HEALTH in every table, then the metrics of a pods or nodes
// table whose columns are the server's (kubectl's custom columns are the columns asked for, no more).
func (t *Table) columnProviders() []columnProvider {
	providers := []columnProvider{&tableHealth{t: t}}
	if len(t.src.Spec().Columns) == 0 {
		if m := newTableMetrics(t, t.res); m != nil {
			providers = append(providers, m)
		}
	}
	return providers
}

// ColumnBindings are the keys of the table's own columns (HEALTH's), in order.
func (t *Table) ColumnBindings() []keymap.Binding {
	var keys []keymap.Binding
	for _, p := range t.providers {
		keys = append(keys, p.bindings()...)
	}
	return keys
}

// providersSynced tells the providers, once per source, that it has synced.
func (t *Table) providersSynced() {
	if !t.synced || t.syncedTold {
		return
	}
	t.syncedTold = true
	for _, p := range t.providers {
		p.synced()
	}
}
