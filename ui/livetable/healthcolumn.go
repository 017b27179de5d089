package livetable

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/rivo/tview"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/ui/keymap"
	"kscope/union"
	"kscope/watch"
)

// healthColumns is the column a table shows while its health is on.
var healthColumns = []watch.Column{watch.HealthColumn().Column}

// errSeveralKinds is why a table of several kinds has no HEALTH column.
var errSeveralKinds = errors.New("not available in a table of several kinds or clusters: open one kind in one cluster (:deploy) for its HEALTH column")

// tableHealth is a table's optional HEALTH column (the `health` key): while on, a second informer lists and
// watches the table's objects themselves (same resource, namespaces and selectors; a watch.ObjectSource whose
// transform computes kstatus and drops the object), and a goroutine hands its changes to the UI goroutine in
// batches (spaced by Host.SpaceRedraw), where they become the column's cells by row key, as the
// metrics' are. It stops when toggled off or the table closes. An error (the list forbidden) stops it and is
// one line on the status line. The fields belong to the UI goroutine; loop touches none of them.
type tableHealth struct {
	t *Table
	// src is the health source while on (nil while off); cancel ends its loop.
	src    cluster.RowSource
	cancel context.CancelFunc
	// byKey is the column's cells by row key; extra holds them for the table (nil until the first batch).
	byKey   map[string][]string
	extra   *watch.Extra
	version uint64
	// complete is set once cells were built from the synced source: from then on they follow its changes.
	complete bool
	// col is the HEALTH column's index in the source's rows (a union of namespaces puts NAMESPACE first).
	col  int
	note string
	// restart is set when the table's source stopped while the column was on: it starts again over the next.
	restart bool
}

// bindings is the key that shows or hides the column (columnProvider).
func (h *tableHealth) bindings() []keymap.Binding {
	return []keymap.Binding{keymap.Keys.Health.Column.Bind(h.toggle)}
}

// started starts the column again over the table's new source if it was on over the old one
// (columnProvider).
func (h *tableHealth) started(context.Context, cluster.RowSource) {
	if h.restart {
		h.restart = false
		h.startOrSay()
	}
}

// synced: nothing waits for the table's first list (columnProvider).
func (h *tableHealth) synced() {}

// stopped stops the column's source with the table's, remembering whether it was on (columnProvider).
func (h *tableHealth) stopped() {
	h.restart = h.on()
	h.stop()
}

// on tells whether the column is on (it may still be listing).
func (h *tableHealth) on() bool { return h.src != nil }

func (h *tableHealth) toggle() {
	h.note = ""
	if h.on() {
		h.stop()
	} else {
		h.startOrSay()
	}
	h.t.refresh()
}

// startOrSay starts the column, or notes why it cannot. UI goroutine.
func (h *tableHealth) startOrSay() {
	if err := h.start(); err != nil {
		h.note = "no health: " + apierr.OneLine(err.Error())
	}
}

// start lists and watches the table's objects for their health. UI goroutine.
func (h *tableHealth) start() error {
	t, a := h.t, h.t.host
	if _, ok := t.src.(kindedSource); ok {
		return errSeveralKinds
	}
	spec := t.src.Spec()
	hs := watch.Spec{GVR: spec.GVR, Namespaced: spec.Namespaced, Namespace: spec.Namespace,
		LabelSelector: spec.LabelSelector, FieldSelector: spec.FieldSelector,
		Columns: []watch.ObjectColumn{watch.HealthColumn()}}
	var src cluster.RowSource
	var err error
	if many, ok := t.src.(interface{ Namespaces() []string }); ok {
		src, err = union.NewNamespaces(a.Spawn(), a.Cluster(), hs, many.Namespaces())
	} else {
		src, err = a.Cluster().NewSource(hs)
	}
	if err != nil {
		return fmt.Errorf("health of %s: %w", t.res.FullName(), err)
	}
	ctx, cancel := context.WithCancel(a.Context())
	h.src, h.cancel = src, cancel
	h.version++ // the column is there at once, empty until the first rows are in
	h.byKey, h.extra, h.complete = nil, &watch.Extra{Columns: healthColumns, Version: h.version}, false
	src.Start(ctx)
	a.Go(func() { h.loop(ctx, src) })
	return nil
}

// stop stops the health source (off the UI goroutine: Stop waits for the informer) and drops the column.
// UI goroutine; a no-op while off.
func (h *tableHealth) stop() {
	if h.src == nil {
		return
	}
	h.cancel()
	h.t.host.Go(h.src.Stop)
	h.src, h.cancel, h.byKey, h.extra = nil, nil, nil, nil
}

// loop turns the health source's notifications into batched updates of the column, until ctx ends. It runs
// on its own goroutine and never touches tview or h.
func (h *tableHealth) loop(ctx context.Context, src cluster.RowSource) {
	a := h.t.host
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-src.Notify():
			if !a.SpaceRedraw(ctx, &last) {
				return
			}
			a.Queue(func() {
				if ctx.Err() == nil && h.src == src && h.apply() {
					h.t.refreshAndDraw()
				}
			})
		}
	}
}

// apply takes the health source's state and changes into the column; it tells whether the table must be
// refreshed. UI goroutine.
func (h *tableHealth) apply() bool {
	st := h.src.State()
	if st.Phase.Terminal() && st.Phase != watch.Stopped {
		h.stop()
		h.note = "no health: " + apierr.OneLine(stateMessage(st))
		return true
	}
	changes := h.src.Changes() // drained first: whatever changes after it is in the next batch
	var cells map[string][]string
	switch {
	case !h.complete:
		// Until the source has synced, its rows are not changes: take them all.
		h.col = slices.IndexFunc(h.src.Columns(), func(c watch.Column) bool { return c.Name == watch.HealthColumnName })
		snap := h.src.Snapshot(watch.Query{SortColumn: -1})
		cells = make(map[string][]string, len(snap.Rows))
		for _, r := range snap.Rows {
			cells[r.Key] = h.cell(r)
		}
		h.complete = st.Phase == watch.Synced
		if h.complete {
			// Its list and decoding allocated much more than the column keeps: give it back now (as a
			// table's first list does), off the UI goroutine.
			h.t.host.Go(h.t.host.Settle)
		}
	case changes.Empty():
		return false
	default:
		cells = maps.Clone(h.byKey) // the table's snapshots may still read the old cells
		for _, r := range changes.Deleted {
			delete(cells, r.Key)
		}
		for _, keys := range [][]string{changes.Added, changes.Updated} {
			for _, k := range keys {
				if r, ok := h.src.Row(k); ok {
					cells[k] = h.cell(r)
				}
			}
		}
	}
	h.byKey = cells
	h.version++
	h.extra = &watch.Extra{Columns: healthColumns, Cells: cells, Version: h.version}
	return true
}

// cell is the HEALTH cell of one of the health source's rows (rows are immutable: their cells are shared).
func (h *tableHealth) cell(r *watch.Row) []string {
	if h.col < 0 || h.col >= len(r.Cells) {
		return nil
	}
	return r.Cells[h.col : h.col+1 : h.col+1]
}

// cells returns the column's cells while it is on (nil for none; columnProvider).
func (h *tableHealth) cells() *watch.Extra { return h.extra }

// statusNote is the status line's note about the column ("" for none; columnProvider).
func (h *tableHealth) statusNote(watch.State) string {
	switch {
	case h.note != "":
		return "  " + h.t.host.Theme().ErrorTag + tview.Escape(h.note) + "[-]"
	case h.on() && !h.complete:
		return "  [yellow]health: listing the objects …[-]"
	}
	return ""
}

// stateMessage is a source state's message, else its error's text.
func stateMessage(st watch.State) string {
	if st.Message == "" && st.Err != nil {
		return st.Err.Error()
	}
	return st.Message
}
