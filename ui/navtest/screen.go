package navtest

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// CellsText returns a simulation screen's cells (tcell.SimulationScreen.GetContents) as lines of text, each
// ending in a newline, trailing spaces trimmed.
func CellsText(cells []tcell.SimCell, w, h int) string {
	var b strings.Builder
	for y := range h {
		var line strings.Builder
		for x := range w {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				line.WriteByte(' ')
				continue
			}
			line.WriteString(string(c.Runes))
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// TableRows returns t's rows, header included, each row's cell texts joined by a space. Call it where t may
// be read (under Nav.UI while the screen's goroutines run).
func TableRows(t *tview.Table) []string {
	var out []string
	for r := range t.GetRowCount() {
		var cells []string
		for c := range t.GetColumnCount() {
			cells = append(cells, t.GetCell(r, c).Text)
		}
		out = append(out, strings.Join(cells, " "))
	}
	return out
}
