package livetable

import "kscope/watch"

// SetExtra sets the cells of the columns that follow the first serverColumns of SetColumns' (a view's own
// columns, such as metrics; nil for none). The rows' own cells fill the server's columns.
func (c *RowContent) SetExtra(extra *watch.Extra, serverColumns int) {
	c.extra, c.serverColumns = extra, serverColumns
}

// cellText returns the text of r in column idx: an extra cell by the row's key, else the row's own cell.
func (c *RowContent) cellText(r *watch.Row, idx int) string {
	if c.extra != nil && idx >= c.serverColumns {
		return c.extra.Cell(r.Key, idx-c.serverColumns)
	}
	if idx < len(r.Cells) {
		return r.Cells[idx]
	}
	return ""
}
