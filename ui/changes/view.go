package changes

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/rivo/tview"

	"kscope/changes"
	"kscope/cluster"
	"kscope/history"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/watch"
)

// columns are the feed's; a feed over several clusters has a CONTEXT column first.
var columns = []string{"TIME", "AGE", "KIND", "NAMESPACE", "NAME", "OP", "MANAGER", "FIELDS", "RV"}

// View is the live feed of changes (`:changes`), of the view's cluster or of several (clusters.go). UI
// goroutine only, but for its watch goroutines.
type View struct {
	ui.BaseScreen
	nav   ui.Navigator
	feed  Feed
	q     query
	parts []*part // one per cluster; the view's cluster alone: one, context ""
	multi bool    // several clusters (feed.Contexts)
	wake  chan struct{}
	table *tview.Table

	shown      []entry        // the rows, newest first
	filter     *regexp.Regexp // `/`; nil: none
	filterText string
	life       screenlife.Life // the watches, the redraws and the tick
}

// New returns the feed of changes (Spec's command opens it) nav's cluster can watch, or, when feed names
// Contexts, those clusters can (each connected by feed.Connect when the view first shows): in the
// namespaces feed's words name (else the view's), keeping the changes their filters match. It returns an
// error, and no screen, for words it does not understand or a source of nav's cluster that cannot be built.
// UI goroutine.
func New(nav ui.Navigator, feed Feed) (ui.Screen, error) {
	q, err := parseArgs(feed.Args, feed.Namespace)
	if err != nil {
		return nil, err
	}
	v := &View{nav: nav, feed: feed, q: q, wake: make(chan struct{}, 1),
		table: tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
	if len(feed.Contexts) > 0 {
		if feed.Connect == nil {
			return nil, fmt.Errorf("changes: connecting to other contexts is not available here")
		}
		v.multi = true
		for _, name := range feed.Contexts {
			v.parts = append(v.parts, &part{context: name, word: "connecting"})
		}
	} else {
		kinds, err := feedKinds(nav.Cluster().Catalog().Resources(), q)
		if err != nil {
			return nil, fmt.Errorf("changes: %w", err)
		}
		src, err := nav.Cluster().NewChangeSource(kinds, q.namespaces)
		if err != nil {
			return nil, fmt.Errorf("changes: %w", err)
		}
		v.parts = []*part{{conn: nav.Cluster(), src: src}}
	}
	v.table.SetBorder(true)
	v.table.SetSelectedStyle(nav.Theme().Cursor)
	return v, nil
}

func (v *View) Crumb() string              { return "changes" }
func (v *View) Primitive() tview.Primitive { return v.table }

// Bindings: the selected change's history, the filter.
func (v *View) Bindings() []keymap.Binding {
	return []keymap.Binding{
		v.nav.HelpBinding(),
		keys.History.Bind(v.openHistory),
		keys.Filter.Bind(v.askFilter),
		v.nav.QuitBinding(),
	}
}

// Activate starts, the first time, the watches (each cluster's part on a goroutine of its own, which
// connects it first in a feed over several), the goroutine that redraws on their changes and the tick that
// refreshes the ages while the view is on top; then draws.
func (v *View) Activate() {
	v.life.Start(v.nav, func(ctx context.Context) {
		for _, p := range v.parts {
			if _, src := p.source(); src != nil {
				src.Start(ctx)
			}
			v.life.Go(func(ctx context.Context) { p.follow(ctx, v.feed.Connect, v.q, v.wake) })
		}
		v.life.Go(v.loop)
		v.life.Tick(v, v.render)
	})
	v.render()
}

// Close stops the watches, off the UI goroutine (Stop waits for them).
func (v *View) Close() {
	v.life.Stop()
	v.nav.Go(func() {
		for _, p := range v.parts {
			p.stop()
		}
	})
}

// loop redraws after a source changed, spaced as every live view's redraws are.
func (v *View) loop(ctx context.Context) {
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.wake:
			if !v.nav.SpaceRedraw(ctx, &last) {
				return
			}
			v.life.Update(v.render)
		}
	}
}

// Escape clears the filter, if any.
func (v *View) Escape() bool {
	if v.filter == nil {
		return false
	}
	v.filter, v.filterText = nil, ""
	v.render()
	return true
}

// askFilter asks for the filter: a regular expression over the row's cells, case-insensitive.
func (v *View) askFilter() {
	v.nav.Ask("/", v.filterText, func(text string) {
		if text == "" {
			v.filter, v.filterText = nil, ""
			v.render()
			return
		}
		re, err := regexp.Compile("(?i)" + text)
		if err != nil {
			v.nav.Errorf("filter %q: %s", text, err)
			return
		}
		v.filter, v.filterText = re, text
		v.render()
	})
}

// openHistory opens the history of the selected change's object, in its own cluster.
func (v *View) openHistory() {
	e, ok := v.selected()
	if !ok {
		v.nav.Errorf("no change selected")
		return
	}
	p := v.parts[e.from]
	conn, src := p.source()
	var model *changes.Model
	if src != nil {
		model = src.Model()
	}
	feed := func() []history.FeedChange {
		if model == nil {
			return nil
		}
		return changes.Feed(model.Of(e.Kind.GVR, e.Namespace, e.Name))
	}
	var in cluster.Interface // the view's cluster
	if v.multi {
		if conn == nil {
			v.nav.Errorf("%s is not connected", p.context)
			return
		}
		in = conn
	}
	if v.feed.History == nil || !v.feed.History(in, p.context, e.Change, feed) {
		v.nav.Errorf("no history view")
	}
}

// selected returns the change under the cursor.
func (v *View) selected() (entry, bool) {
	r, _ := v.table.GetSelection()
	if r < 1 || r > len(v.shown) {
		return entry{}, false
	}
	return v.shown[r-1], true
}

// Status names the kinds not watched (each once), in a feed over several clusters each cluster's word, and
// the bound.
func (v *View) Status() string {
	var parts []string
	if v.multi {
		for _, p := range v.parts {
			parts = append(parts, p.status())
		}
	}
	objects := 0
	for _, p := range v.parts {
		if _, src := p.source(); src != nil {
			objects += src.Model().Stats().Objects
		}
	}
	parts = append(parts, fmt.Sprintf("%d objects watched", objects))
	if !v.multi {
		parts = append(parts, v.progress()...)
	}
	parts = append(parts, fmt.Sprintf("latest %d kept%s, oldest dropped", v.capacity(), v.perCluster()))
	return tview.Escape(strings.Join(parts, " · "))
}

// progress is the status line's words on the watches of the view's cluster alone.
func (v *View) progress() []string {
	_, src := v.parts[0].source()
	p := src.Progress()
	var parts []string
	if p.Listed < p.Total {
		parts = append(parts, fmt.Sprintf("listing %d/%d", p.Listed, p.Total))
	}
	if len(p.NotVisible) > 0 {
		parts = append(parts, "not visible (skipped): "+strings.Join(p.NotVisible, ", "))
	}
	if len(p.Failed) > 0 {
		parts = append(parts, "failed: "+strings.Join(p.Failed, "; "))
	}
	return parts
}

// capacity is how many changes each cluster's part keeps.
func (v *View) capacity() int {
	for _, p := range v.parts {
		if _, src := p.source(); src != nil {
			return src.Model().Stats().Capacity
		}
	}
	return changes.Capacity
}

// perCluster says, in a feed over several clusters, that the bound is each cluster's.
func (v *View) perCluster() string {
	if v.multi {
		return " per cluster"
	}
	return ""
}

// columns are the view's: CONTEXT first in a feed over several clusters.
func (v *View) columns() []string {
	if v.multi {
		return append([]string{"CONTEXT"}, columns...)
	}
	return columns
}

// label is the view's name in the title: "changes(shop)", "changes @prod,@stg(shop)".
func (v *View) label() string {
	if v.multi {
		return "changes @" + strings.Join(v.feed.Contexts, ",@") + "(" + v.q.label() + ")"
	}
	return "changes(" + v.q.label() + ")"
}

// render fills the table from the parts' models (merged newest first), keeping the selection on the same
// change (on the newest while it is on the first row).
func (v *View) render() {
	prev, had := v.selected()
	row, _ := v.table.GetSelection()
	lists := make([][]changes.Change, len(v.parts))
	kept := 0
	for i, p := range v.parts {
		if _, src := p.source(); src != nil {
			lists[i] = src.Model().Changes()
			kept += len(lists[i])
		}
	}
	v.shown = v.shown[:0]
	for _, e := range merge(lists) {
		if v.q.matches(e.Change) && (v.filter == nil || v.filter.MatchString(strings.Join(v.cells(e), "\n"))) {
			v.shown = append(v.shown, e)
		}
	}
	theme := v.nav.Theme()
	v.table.Clear()
	count := fmt.Sprintf("%d of max %d%s", kept, v.capacity(), v.perCluster())
	if len(v.shown) != kept {
		count = fmt.Sprintf("%d/%s", len(v.shown), count)
	}
	title := fmt.Sprintf(" %s%s%s[%s] ", theme.Title, tview.Escape(v.label()), theme.Counter, count)
	if v.filter != nil {
		title += fmt.Sprintf("%s</%s> ", theme.Filter, tview.Escape(v.filterText))
	}
	v.table.SetTitle(title)
	cols := v.columns()
	for c, h := range cols {
		v.table.SetCell(0, c, tview.NewTableCell(h).SetStyle(theme.Header).SetSelectable(false))
	}
	for i, e := range v.shown {
		color := theme.RowFg
		switch e.Op {
		case changes.Created:
			color = theme.RowFlash
		case changes.Deleted:
			color = theme.ErrorColor
		}
		for col, text := range v.cells(e) {
			cell := tview.NewTableCell(tview.Escape(text)).SetTextColor(color)
			if cols[col] == "FIELDS" {
				cell.SetExpansion(1)
			}
			v.table.SetCell(i+1, col, cell)
		}
	}
	if len(v.shown) == 0 {
		v.table.SetCell(1, 0, tview.NewTableCell("no change yet: the objects as listed are not changes; changes show as they happen").
			SetSelectable(false).SetTextColor(theme.Dim))
		v.nav.UpdateStatus(v)
		return
	}
	v.table.Select(v.selectionRow(prev, had, row), 0)
	v.nav.UpdateStatus(v)
}

// selectionRow is the row to select after a render: the newest while the cursor was on it, else the
// change selected before, else the same row.
func (v *View) selectionRow(prev entry, had bool, row int) int {
	if had && row > 1 {
		for i, e := range v.shown {
			if e.from == prev.from && e.Seen.Equal(prev.Seen) && e.RV == prev.RV && e.Name == prev.Name &&
				e.Namespace == prev.Namespace && e.Op == prev.Op {
				return i + 1
			}
		}
	}
	return min(max(row, 1), len(v.shown))
}

// cells are e's row, as the view's columns name them.
func (v *View) cells(e entry) []string {
	manager := e.Manager
	switch {
	case manager == "":
		manager = "—"
	case !e.Sure:
		manager += "?"
	}
	cells := []string{e.Seen.Local().Format("15:04:05"), watch.FormatAge(max(v.nav.Clock().Since(e.Seen), 0)),
		e.Kind.Kind, e.Namespace, e.Name, e.Op.String(), manager, e.Fields, e.RV}
	if v.multi {
		return append([]string{v.parts[e.from].context}, cells...)
	}
	return cells
}
