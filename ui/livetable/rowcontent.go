package livetable

import (
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/ui/theme"
	"kscope/watch"
)

// ghost is a deleted row kept on screen, dimmed, until it expires.
type ghost struct {
	row   *watch.Row
	until time.Time
	index int // position in the displayed rows
}

// RowContent is a tview.TableContent over the current watch.Snapshot plus the rows deleted moments ago.
// Row 0 is the header. Only the cells tview asks for (the visible rows) are built, AGE from Row.Created at
// draw time. It is used on the UI goroutine only.
type RowContent struct {
	tview.TableContentReadOnly

	columns []watch.Column
	visible []int // indexes into columns that are shown
	rows    []*watch.Row
	ghosted map[*watch.Row]bool

	sortColumn int
	descending bool

	now      func() time.Time
	flashFor time.Duration
	ghostFor time.Duration
	flashes  map[string]time.Time // key → flash ends
	ghosts   map[string]*ghost

	// headerClicked, when set, is called with the column index of a header cell the mouse clicked.
	headerClicked func(idx int)

	// placeholder is shown in place of rows when there are none (listing, forbidden, empty).
	placeholder      string
	placeholderColor tcell.Color

	// extra holds the cells of the columns after the first serverColumns (the view's own, SetExtra).
	extra         *watch.Extra
	serverColumns int

	// theme gives the colors (kscope's unless the table's app has a skin).
	theme *theme.Theme
	// marked are the keys of the rows marked (the table's marks; nil: none).
	marked map[string]bool
}

// SetTheme sets the colors the rows are drawn in (the app's theme: kscope's, or a skin over it).
func (c *RowContent) SetTheme(th *theme.Theme) { c.theme = th }

// SetPlaceholder sets the line shown when there are no rows ("" for none).
func (c *RowContent) SetPlaceholder(text string, color tcell.Color) {
	c.placeholder, c.placeholderColor = text, color
}

func (c *RowContent) showsPlaceholder() bool { return len(c.rows) == 0 && c.placeholder != "" }

// NewRowContent returns empty content using now for AGE and expiry.
func NewRowContent(now func() time.Time, flashFor, ghostFor time.Duration) *RowContent {
	return &RowContent{
		theme: theme.Default(), now: now, flashFor: flashFor, ghostFor: ghostFor, sortColumn: -1,
		flashes: map[string]time.Time{}, ghosts: map[string]*ghost{}, ghosted: map[*watch.Row]bool{},
	}
}

// SetColumns sets the server's columns; wide ones are shown only when wide is set.
func (c *RowContent) SetColumns(columns []watch.Column, wide bool) {
	c.columns = columns
	c.visible = c.visible[:0]
	for i, col := range columns {
		if wide || col.Priority == 0 {
			c.visible = append(c.visible, i)
		}
	}
}

// SetSort marks the sorted column (an index into the columns, -1 for none) in the header.
func (c *RowContent) SetSort(column int, descending bool) {
	c.sortColumn, c.descending = column, descending
}

// Update takes a new snapshot and the changes since the previous one: changed rows start flashing,
// deleted rows stay dimmed where they were while they pass keep (the filter of the moment: a row deleted
// under one filter goes when a filter it does not match is set).
func (c *RowContent) Update(snap watch.Snapshot, changes watch.ChangeSet, keep func(*watch.Row) bool) {
	now := c.now()
	for _, keys := range [][]string{changes.Added, changes.Updated} {
		for _, k := range keys {
			c.flashes[k] = now.Add(c.flashFor)
		}
	}
	if len(changes.Deleted) > 0 {
		index := make(map[string]int, len(c.rows))
		for i, r := range c.rows {
			index[r.Key] = i
		}
		for _, r := range changes.Deleted {
			delete(c.flashes, r.Key)
			i, ok := index[r.Key]
			if !ok {
				i = len(c.rows)
			}
			c.ghosts[r.Key] = &ghost{row: r, until: now.Add(c.ghostFor), index: i}
		}
	}
	for k, g := range c.ghosts {
		if keep != nil && !keep(g.row) {
			delete(c.ghosts, k)
		}
	}
	c.expire(now)
	c.merge(snap.Rows)
}

// LiveNear returns the table row nearest r (r itself, then the rows below, then those above) that shows a
// live object, not a deleted one; r when there is none.
func (c *RowContent) LiveNear(r int) int {
	for i := max(r, 1); i <= len(c.rows); i++ {
		if !c.ghosted[c.rows[i-1]] {
			return i
		}
	}
	for i := min(r, len(c.rows)+1) - 1; i >= 1; i-- {
		if !c.ghosted[c.rows[i-1]] {
			return i
		}
	}
	return r
}

// expire forgets flashes and ghosts whose time is over.
func (c *RowContent) expire(now time.Time) {
	for k, until := range c.flashes {
		if !now.Before(until) {
			delete(c.flashes, k)
		}
	}
	for k, g := range c.ghosts {
		if !now.Before(g.until) {
			delete(c.ghosts, k)
		}
	}
}

// merge builds the displayed rows: the snapshot with the ghosts inserted at their last positions.
func (c *RowContent) merge(rows []*watch.Row) {
	clear(c.ghosted)
	if len(c.ghosts) == 0 {
		c.rows = rows
		return
	}
	live := make(map[string]bool, len(c.ghosts))
	for _, r := range rows {
		if _, ok := c.ghosts[r.Key]; ok {
			live[r.Key] = true
		}
	}
	var order []*ghost
	for k, g := range c.ghosts {
		if live[k] { // recreated: the live row wins
			delete(c.ghosts, k)
			continue
		}
		order = append(order, g)
	}
	sortGhosts(order)
	merged := make([]*watch.Row, 0, len(rows)+len(order))
	next := 0
	for _, g := range order {
		for len(merged) < g.index && next < len(rows) {
			merged = append(merged, rows[next])
			next++
		}
		g.index = len(merged)
		merged = append(merged, g.row)
		c.ghosted[g.row] = true
	}
	c.rows = append(merged, rows[next:]...)
}

func sortGhosts(gs []*ghost) {
	for i := 1; i < len(gs); i++ {
		for j := i; j > 0 && (gs[j].index < gs[j-1].index ||
			gs[j].index == gs[j-1].index && gs[j].row.Key < gs[j-1].row.Key); j-- {
			gs[j], gs[j-1] = gs[j-1], gs[j]
		}
	}
}

// Pending tells whether flashes or ghosts are waiting to expire (the table must refresh to clear them).
func (c *RowContent) Pending() bool { return len(c.flashes)+len(c.ghosts) > 0 }

// Rows returns the displayed rows (ghosts included); do not modify.
func (c *RowContent) Rows() []*watch.Row { return c.rows }

// RowAt returns the row shown at table row r (r ≥ 1), and whether it is a deleted one.
func (c *RowContent) RowAt(r int) (*watch.Row, bool) {
	if r < 1 || r > len(c.rows) {
		return nil, false
	}
	row := c.rows[r-1]
	return row, c.ghosted[row]
}

// IndexOf returns the table row showing key, or -1.
func (c *RowContent) IndexOf(key string) int {
	for i, r := range c.rows {
		if r.Key == key {
			return i + 1
		}
	}
	return -1
}

// ColumnGap pads every cell so that columns stand three spaces apart (tview adds one), as kubectl prints them.
const ColumnGap = "  "

// GetRowCount implements tview.TableContent.
func (c *RowContent) GetRowCount() int {
	if c.showsPlaceholder() {
		return 2
	}
	return len(c.rows) + 1
}

// GetColumnCount implements tview.TableContent. A placeholder line is one cell, and so is the header above
// it (the column names as they would stand over rows), so that the placeholder never widens a column.
func (c *RowContent) GetColumnCount() int {
	if c.showsPlaceholder() {
		return 1
	}
	return max(len(c.visible), 1)
}

// GetCell implements tview.TableContent.
func (c *RowContent) GetCell(row, column int) *tview.TableCell {
	if c.showsPlaceholder() {
		return c.placeholderCell(row, column)
	}
	if column < 0 || column >= len(c.visible) || row < 0 || row > len(c.rows) {
		return nil
	}
	idx := c.visible[column]
	col := c.columns[idx]
	if row == 0 {
		cell := tview.NewTableCell(c.headerText(idx) + ColumnGap).SetStyle(c.theme.Header).SetSelectable(false)
		if c.headerClicked != nil {
			cell.SetClickedFunc(func() bool { c.headerClicked(idx); return true })
		}
		return cell
	}
	r := c.rows[row-1]
	text := c.shownText(r, idx)
	cell := tview.NewTableCell(tview.Escape(text) + ColumnGap).SetTextColor(c.theme.RowFg)
	switch {
	case c.ghosted[r]:
		cell.SetTextColor(c.theme.RowGhost).SetAttributes(tcell.AttrDim)
	case c.marked[r.Key]:
		cell.SetTextColor(c.theme.RowMarked).SetAttributes(tcell.AttrBold)
	case c.flashing(r.Key):
		cell.SetTextColor(c.theme.RowFlash).SetAttributes(tcell.AttrBold)
	}
	if col.Type == "integer" || col.Type == "number" || col.Type == "quantity" {
		cell.SetAlign(tview.AlignRight)
	}
	return cell
}

// header is the name of column idx as kubectl prints the server's column names, with the sort arrow.
func (c *RowContent) header(idx int) string {
	name := strings.ToUpper(c.columns[idx].Name)
	if idx == c.sortColumn {
		name += map[bool]string{false: "↑", true: "↓"}[c.descending]
	}
	return name
}

// headerText is header(idx) as markup: the sort arrow in the skin's sorter color.
func (c *RowContent) headerText(idx int) string {
	text := tview.Escape(c.header(idx))
	if idx != c.sortColumn || c.theme.Sorter == "" {
		return text
	}
	arrow := len("↑") // as long as ↓
	return text[:len(text)-arrow] + c.theme.Sorter + text[len(text)-arrow:] + "[-]"
}

// placeholderCell is the cell at row, column while the placeholder shows: the header line, then the text.
func (c *RowContent) placeholderCell(row, column int) *tview.TableCell {
	switch {
	case column != 0:
		return nil
	case row == 0:
		names := make([]string, len(c.visible))
		for i, idx := range c.visible {
			names[i] = tview.Escape(c.header(idx))
		}
		return tview.NewTableCell(strings.Join(names, ColumnGap+" ")).SetStyle(c.theme.Header).SetSelectable(false)
	case row == 1:
		return tview.NewTableCell(tview.Escape(c.placeholder)).SetTextColor(c.placeholderColor).SetSelectable(false)
	}
	return nil
}

func (c *RowContent) flashing(key string) bool {
	until, ok := c.flashes[key]
	return ok && c.now().Before(until)
}

// shownText is the text of r in column idx as the table shows it (AGE from the row's creation time).
func (c *RowContent) shownText(r *watch.Row, idx int) string {
	if c.columns[idx].Age && !r.Created.IsZero() {
		return formatAge(c.now().Sub(r.Created))
	}
	return c.cellText(r, idx)
}
