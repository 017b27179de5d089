package livetable

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// Table shows one cluster.RowSource as a table: the server's columns, rows sorted and filtered by the source,
// changed rows flashing and deleted ones dimmed for a moment, the selection following its object. A
// goroutine of its own waits for the source's notifications and schedules at most one refresh per the host's
// minimum time between redraws (Host.SpaceRedraw); the refresh itself (Changes + Snapshot) runs on the UI
// goroutine. It is one screen of the app's stack (ui.Screen); every method runs on the UI goroutine.
type Table struct {
	host    Host
	res     discovery.Resource
	src     cluster.RowSource
	title   string
	table   *tview.Table
	content *RowContent

	query watch.Query
	wide  bool
	// fixed tables (events of one object) keep their namespace when the user switches.
	fixed bool
	// selectKey is selected as soon as it appears (owner jump); cleared then.
	selectKey string
	total     int
	shown     int    // live rows shown (deleted ones excluded)
	drawnAges string // visibleAges at the last tick that drew
	synced    bool   // the source was synced at the last refresh
	// drawn is what screenChanged saw last.
	drawn struct {
		rows          []*watch.Row
		selected      int
		title, status string
		extra         uint64 // the version of the table's own columns' cells (tableExtra)
		// stale is set when the table was refreshed outside refreshAndDraw (a key, a show): whatever was
		// drawn then is not what drawn holds, so the next refreshAndDraw draws.
		stale bool
	}
	// ticked is the status text the last tick saw (statusChanged).
	ticked string
	// pulse is the pulse note of the status line, taken anew at each tick only: its event rate changes with
	// every event, so a note taken at each refresh made every refresh redraw the whole screen (under 150
	// patches/s, 20 full draws a second for rows that were not on screen).
	pulse  string
	cancel context.CancelFunc
	// providers give the table columns of its own (HEALTH, the metrics); extras joins their cells.
	providers []columnProvider
	extras    tableExtra
	// syncedTold is set once the providers were told that the current source synced.
	syncedTold bool
	// layout is the table's views.yaml entry (nil for none).
	layout *viewLayout
	// faults is the fault filter (faults.go): only the rows that are not healthy while on.
	faults tableFaults
	// hidden are the kinds of rows hidden until their key shows them (hidden.go).
	hidden []*tableHidden
	// marks are the rows marked (marks.go).
	marks marks
}

// New returns a table of res over src, titled title, shown by host (not started until shown: Activate).
func New(host Host, res discovery.Resource, src cluster.RowSource, title string) *Table {
	t := &Table{host: host, res: res, src: src, title: title, query: watch.Query{SortColumn: -1}}
	t.providers = t.columnProviders()
	t.faults = tableFaults{t: t}
	t.content = t.newContent()
	t.table = tview.NewTable().SetContent(t.content).SetFixed(1, 0).SetSelectable(true, false)
	t.table.SetSelectedStyle(host.Theme().Cursor)
	t.table.SetBorder(true)
	t.table.SetMouseCapture(t.doubleClick)
	return t
}

// Crumb is the table's title, in the breadcrumbs.
func (t *Table) Crumb() string { return t.title }

// Primitive is the tview table.
func (t *Table) Primitive() tview.Primitive { return t.table }

// Activate starts the source on first show, and refreshes on every show.
func (t *Table) Activate() {
	if t.cancel == nil {
		t.start()
	}
	t.refresh()
}

func (t *Table) start() {
	ctx, cancel := context.WithCancel(t.host.Context())
	t.cancel = cancel
	t.src.Start(ctx)
	src := t.src
	t.host.Go(func() { t.loop(ctx, src) })
	if s, ok := src.(cluster.Settler); ok {
		t.host.Go(func() { t.whenSettled(ctx, s.Settled()) })
	}
	t.syncedTold = false
	for _, p := range t.providers {
		p.started(ctx, src)
	}
}

// Close cancels the refresh loop and stops the source off the UI goroutine (Stop waits for the informer
// to return, which must not freeze the screen).
func (t *Table) Close() {
	if t.cancel != nil {
		t.cancel()
		t.cancel = nil
	}
	for _, p := range t.providers {
		p.stopped()
	}
	t.host.Go(t.src.Stop)
}

// refreshAndDraw refreshes the table and draws it when what it shows changed. A table under the YAML view, or
// changes to rows off screen, need no drawing. UI goroutine.
func (t *Table) refreshAndDraw() {
	t.update()
	if t.host.OnTop() && t.screenChanged() {
		t.host.Draw()
	}
}

// loop turns the source's notifications into batched refreshes, and ticks AGE once a second.
func (t *Table) loop(ctx context.Context, src cluster.RowSource) {
	clk := t.host.Clock()
	var tick <-chan time.Time
	if t.host.Timing().Tick > 0 {
		ticker := clk.NewTicker(t.host.Timing().Tick)
		defer ticker.Stop()
		tick = ticker.C()
	}
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-src.Notify():
			if !t.host.SpaceRedraw(ctx, &last) {
				return
			}
			t.host.Queue(func() {
				if ctx.Err() == nil && t.src == src {
					t.refreshAndDraw()
				}
			})
		case <-tick:
			t.host.Queue(func() {
				if ctx.Err() == nil && t.src == src && t.host.OnTop() {
					t.tick()
				}
			})
		}
	}
}

// tick expires flashes and redraws when an AGE shown on screen has changed; an idle table whose ages
// read the same (most seconds, once objects are minutes old) is not redrawn. It runs inside a queued
// update, so it draws with ForceDraw (Draw would wait for itself).
func (t *Table) tick() {
	t.pulse = pulseNote(t.src)
	if t.statusChanged() {
		t.host.Draw()
		return
	}
	if t.content.Pending() {
		t.refresh()
		t.host.Draw()
		return
	}
	// A filter can match ages ("5m"), which change with time alone: a filtered table takes a new snapshot
	// (the source filters again once a second at most) and draws if the rows it shows changed.
	if !t.query.Filter.Empty() {
		t.update()
		if t.screenChanged() {
			t.host.Draw()
			return
		}
	}
	if ages := t.visibleAges(); ages != t.drawnAges {
		t.drawnAges = ages
		t.host.Draw()
	}
}

// statusChanged shows the status again when its text changed since the previous tick (the pulse's event
// rate changes with time alone) and tells whether it did.
func (t *Table) statusChanged() bool {
	text := t.Status()
	if text == t.ticked {
		return false
	}
	first := t.ticked == ""
	t.ticked = text
	if first {
		return false
	}
	t.host.ShowStatus()
	return true
}

// screenChanged tells whether what the table shows (rows in view, selection, title, status, the cells of its
// own columns) differs from the previous call, remembering the new state; after a refresh outside it (a key,
// a show: drawn then by someone else), it is true once. Rows are immutable, so a changed row is a new pointer.
func (t *Table) screenChanged() bool {
	// The rows on screen always include the selected one, so they lie within a screen's height of it.
	selected, _ := t.table.GetSelection()
	_, _, _, height := t.table.GetInnerRect()
	rows := t.content.Rows()
	visible := rows[min(max(selected-height, 0), len(rows)):min(selected+height, len(rows))]
	title, status := t.table.GetTitle(), t.host.StatusText()
	extra := t.extras.version
	same := !t.drawn.stale && selected == t.drawn.selected && title == t.drawn.title && status == t.drawn.status &&
		extra == t.drawn.extra && len(visible) == len(t.drawn.rows)
	for i := 0; same && i < len(visible); i++ {
		same = visible[i] == t.drawn.rows[i]
	}
	if same {
		return false
	}
	t.drawn.rows = append(t.drawn.rows[:0], visible...)
	t.drawn.selected, t.drawn.title, t.drawn.status, t.drawn.extra, t.drawn.stale = selected, title, status, extra, false
	return true
}

// visibleAges returns the AGE texts of the rows on screen, joined ("" without an AGE column).
func (t *Table) visibleAges() string {
	hasAge := false
	for _, c := range t.src.Columns() {
		hasAge = hasAge || c.Age
	}
	if !hasAge {
		return ""
	}
	offset, _ := t.table.GetOffset()
	_, _, _, height := t.table.GetInnerRect()
	rows := t.content.Rows()
	now := t.host.Clock().Now()
	var b strings.Builder
	for i := offset; i < min(offset+height, len(rows)); i++ {
		b.WriteString(formatAge(now.Sub(rows[i].Created)))
		b.WriteByte(',')
	}
	return b.String()
}

// refresh takes the source's changes and a new snapshot, keeping the selection on the same object, for a
// caller that draws (or leaves the drawing to the key that called it). UI goroutine.
func (t *Table) refresh() {
	t.update()
	t.drawn.stale = true
}

// update takes a new snapshot of the source into the table, keeping the selection on its object, and
// shows the title and the status (refresh without what screenChanged knows of the screen). UI goroutine.
func (t *Table) update() {
	oldRow, _ := t.table.GetSelection()
	hadRows := len(t.content.Rows()) > 0
	want := ""
	// While the first rows stream in, a cursor left on the top row stays there (rather than following the
	// first object that happened to arrive); afterwards it follows its object. Over a placeholder line the
	// cursor means nothing (tview moves it past the unselectable line), so the first rows start at the top.
	if hadRows && (t.synced || oldRow > 1) {
		want = t.selectedKey()
	}
	if t.selectKey != "" {
		want = t.selectKey
	}
	t.content.SetColumns(t.columns(), t.wide)
	t.arrangeColumns()
	t.content.SetExtra(t.extra(), len(t.src.Columns()))
	t.content.SetSort(t.query.SortColumn, t.query.Descending)
	changes := t.src.Changes()
	t.marks.forget(changes.Deleted)
	q := t.query
	q.Now = t.host.Clock().Now() // a filter matches the ages as this table shows them
	q.Extra = t.extra()
	snap := t.src.Snapshot(q)
	t.total = snap.Total
	keep := t.query.Filter.Match
	if faulty := t.faults.keep(); faulty != nil {
		snap.Rows = slices.DeleteFunc(slices.Clone(snap.Rows), func(r *watch.Row) bool { return !faulty(r) })
		keep = func(r *watch.Row) bool { return t.query.Filter.Match(r) && faulty(r) }
	}
	snap.Rows = t.hide(snap.Rows)
	t.content.Update(snap, changes, t.hiddenKeep(keep))
	t.content.SetPlaceholder(t.placeholder(snap))
	t.shown = len(snap.Rows)
	row := -1
	if want != "" {
		row = t.content.IndexOf(want)
	}
	if row > 0 && want == t.selectKey {
		t.selectKey = ""
	}
	if row < 0 && hadRows {
		row = min(max(oldRow, 1), len(t.content.Rows()))
	}
	// A row deleted moments ago is never where the cursor lands: a key pressed then acts on a live object.
	t.table.Select(t.content.LiveNear(max(row, 1)), 0)
	t.synced = t.src.State().Phase == watch.Synced
	t.providersSynced()
	t.updateTitle()
	t.host.ShowStatus()
}

// selectedKey returns the key of the row under the cursor, or "".
func (t *Table) selectedKey() string {
	if r := t.selectedRow(); r != nil {
		return r.Key
	}
	return ""
}

// selectedRow returns the row under the cursor (possibly a deleted one), or nil.
func (t *Table) selectedRow() *watch.Row {
	r, _ := t.table.GetSelection()
	row, _ := t.content.RowAt(r)
	return row
}

// setNamespace restarts the table's source in namespace ns ("" = all).
func (t *Table) setNamespace(ns string) {
	spec := t.src.Spec()
	if _, many := t.src.(interface{ Namespaces() []string }); spec.Namespace == ns && !many {
		return
	}
	spec.Namespace = ns
	src, err := t.sourceIn(spec)
	if err != nil {
		t.host.Errorf("open %s: %s", t.res.FullName(), err)
		return
	}
	t.Close()
	t.ClearMarks()
	t.src, t.pulse = src, "" // (the new source's pulse from the next status on)
	t.content = t.newContent()
	t.table.SetContent(t.content)
	t.start() // (the providers start again over the new source: HEALTH if it was on)
	t.refresh()
}

// setQuery applies a new sort or filter.
func (t *Table) setQuery(q watch.Query) {
	t.query = q
	t.refresh()
}

// newContent returns empty rows for the table; a click on a header sorts by that column.
func (t *Table) newContent() *RowContent {
	c := NewRowContent(t.host.Clock().Now, t.host.Timing().FlashFor, t.host.Timing().GhostFor)
	c.theme = t.host.Theme()
	c.headerClicked = t.sortByColumn
	c.marked = t.marks.set()
	return c
}

// doubleClick makes a second click soon after the first count too: on a header it sorts again (reverses),
// on a row it selects the row and opens it, as Enter does.
func (t *Table) doubleClick(action tview.MouseAction, ev *tcell.EventMouse) (tview.MouseAction, *tcell.EventMouse) {
	if action != tview.MouseLeftDoubleClick || !t.table.InRect(ev.Position()) {
		return action, ev
	}
	if row, _ := t.table.CellAt(ev.Position()); row > 0 {
		t.table.Select(row, 0)
		t.enter()
		return tview.MouseConsumed, nil
	}
	return tview.MouseLeftClick, ev
}
