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
	"kscope/watch"
)

// columns are the feed's.
var columns = []string{"TIME", "AGE", "KIND", "NAMESPACE", "NAME", "OP", "MANAGER", "FIELDS", "RV"}

// View is the live feed of changes (`:changes`). UI goroutine only, but for its watch loop.
type View struct {
	ui.BaseScreen
	nav   ui.Navigator
	feed  ui.ChangesFeed
	q     query
	src   cluster.ChangeSource
	table *tview.Table

	shown      []changes.Change // the rows, newest first
	filter     *regexp.Regexp   // `/`; nil: none
	filterText string
	cancel     context.CancelFunc
	ticks      context.CancelFunc
}

// New returns the feed of changes nav's cluster can watch (a ui.TableScreens opener): in the namespaces
// feed's words name (else the view's), keeping the changes their filters match. It returns an error, and
// no screen, for words it does not understand or a source that cannot be built. UI goroutine.
func New(nav ui.Navigator, feed ui.ChangesFeed) (ui.Screen, error) {
	q, err := parseArgs(feed.Args, feed.Namespace)
	if err != nil {
		return nil, err
	}
	src, err := nav.Cluster().NewChangeSource(feedKinds(nav.Cluster().Catalog().Resources()), q.namespaces)
	if err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	v := &View{nav: nav, feed: feed, q: q, src: src, table: tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
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
		keymap.Keys.Changes.History.Bind(v.openHistory),
		keymap.Keys.Changes.Filter.Bind(v.askFilter),
		v.nav.QuitBinding(),
	}
}

// Activate starts, the first time, the watches, the goroutine that redraws on their changes and the tick
// that refreshes the ages while the view is on top; then draws.
func (v *View) Activate() {
	if v.cancel == nil {
		ctx, cancel := context.WithCancel(v.nav.Context())
		v.cancel = cancel
		v.src.Start(ctx)
		v.nav.Go(func() { v.loop(ctx) })
		v.ticks = v.nav.EveryTickWhileOnTop(v, v.render)
	}
	v.render()
}

// Close stops the watches, off the UI goroutine (Stop waits for them).
func (v *View) Close() {
	if v.cancel != nil {
		v.cancel()
		v.ticks()
	}
	v.nav.Go(v.src.Stop)
}

// loop redraws after the source changed, spaced as every live view's redraws are.
func (v *View) loop(ctx context.Context) {
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.src.Notify():
			if !v.nav.SpaceRedraw(ctx, &last) {
				return
			}
			v.nav.Update(func() {
				if ctx.Err() == nil {
					v.render()
				}
			})
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

// openHistory opens the history of the selected change's object.
func (v *View) openHistory() {
	c, ok := v.selected()
	switch {
	case !ok:
		v.nav.Errorf("no change selected")
	case v.feed.History == nil:
		v.nav.Errorf("no history view")
	default:
		model := v.src.Model()
		v.feed.History(c, func() []history.FeedChange {
			return changes.Feed(model.Of(c.Kind.GVR, c.Namespace, c.Name))
		})
	}
}

// selected returns the change under the cursor.
func (v *View) selected() (changes.Change, bool) {
	r, _ := v.table.GetSelection()
	if r < 1 || r > len(v.shown) {
		return changes.Change{}, false
	}
	return v.shown[r-1], true
}

// Status names the kinds not watched (each once) and the bound.
func (v *View) Status() string {
	p := v.src.Progress()
	st := v.src.Model().Stats()
	parts := []string{fmt.Sprintf("%d objects watched", st.Objects)}
	if p.Listed < p.Total {
		parts = append(parts, fmt.Sprintf("listing %d/%d", p.Listed, p.Total))
	}
	if len(p.NotVisible) > 0 {
		parts = append(parts, "not visible (skipped): "+strings.Join(p.NotVisible, ", "))
	}
	if len(p.Failed) > 0 {
		parts = append(parts, "failed: "+strings.Join(p.Failed, "; "))
	}
	parts = append(parts, fmt.Sprintf("latest %d kept, oldest dropped", st.Capacity))
	return tview.Escape(strings.Join(parts, " · "))
}

// render fills the table from the model, keeping the selection on the same change (on the newest while it
// is on the first row).
func (v *View) render() {
	prev, had := v.selected()
	row, _ := v.table.GetSelection()
	all := v.src.Model().Changes()
	st := v.src.Model().Stats()
	v.shown = v.shown[:0]
	for _, c := range all {
		if v.q.matches(c) && (v.filter == nil || v.filter.MatchString(strings.Join(v.cells(c), "\n"))) {
			v.shown = append(v.shown, c)
		}
	}
	theme := v.nav.Theme()
	v.table.Clear()
	title := fmt.Sprintf(" %schanges(%s)%s[%d of max %d] ", theme.Title, tview.Escape(v.q.label()), theme.Counter, st.Kept, st.Capacity)
	if len(v.shown) != st.Kept {
		title = fmt.Sprintf(" %schanges(%s)%s[%d/%d of max %d] ", theme.Title, tview.Escape(v.q.label()), theme.Counter, len(v.shown), st.Kept, st.Capacity)
	}
	if v.filter != nil {
		title += fmt.Sprintf("%s</%s> ", theme.Filter, tview.Escape(v.filterText))
	}
	v.table.SetTitle(title)
	for c, h := range columns {
		v.table.SetCell(0, c, tview.NewTableCell(h).SetStyle(theme.Header).SetSelectable(false))
	}
	for i, c := range v.shown {
		color := theme.RowFg
		switch c.Op {
		case changes.Created:
			color = theme.RowFlash
		case changes.Deleted:
			color = theme.ErrorColor
		}
		for col, text := range v.cells(c) {
			cell := tview.NewTableCell(tview.Escape(text)).SetTextColor(color)
			if columns[col] == "FIELDS" {
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
func (v *View) selectionRow(prev changes.Change, had bool, row int) int {
	if had && row > 1 {
		for i, c := range v.shown {
			if c.Seen.Equal(prev.Seen) && c.RV == prev.RV && c.Name == prev.Name && c.Namespace == prev.Namespace && c.Op == prev.Op {
				return i + 1
			}
		}
	}
	return min(max(row, 1), len(v.shown))
}

// cells are c's row, as columns names them.
func (v *View) cells(c changes.Change) []string {
	manager := c.Manager
	switch {
	case manager == "":
		manager = "—"
	case !c.Sure:
		manager += "?"
	}
	return []string{c.Seen.Local().Format("15:04:05"), watch.FormatAge(max(v.nav.Clock().Since(c.Seen), 0)),
		c.Kind.Kind, c.Namespace, c.Name, c.Op.String(), manager, c.Fields, c.RV}
}
