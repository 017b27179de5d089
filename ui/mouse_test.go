package ui

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/ui/livetable"
)

// click clicks the left button at x, y (down and up, as a terminal reports it).
func (h *harness) click(x, y int) {
	h.t.Helper()
	h.screen.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
	h.screen.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
	h.sync()
}

// cellAt returns the screen position of the first occurrence of text.
func (h *harness) cellAt(text string) (int, int) {
	h.t.Helper()
	for y, line := range splitLines(h.text()) {
		if x := runeIndex(line, text); x >= 0 {
			return x, y
		}
	}
	h.t.Fatalf("%q is not on screen:\n%s", text, h.text())
	return 0, 0
}

func TestMouseSelectsSortsAndOpens(t *testing.T) {
	// Every click after the first is a double click (tview times them on the real clock).
	interval := tview.DoubleClickInterval
	tview.DoubleClickInterval = time.Hour
	t.Cleanup(func() { tview.DoubleClickInterval = interval })
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.Mouse = true })
	h.eventually("web-7d9f-fghij")
	h.click(h.cellAt("web-7d9f-fghij"))
	h.until("the clicked row selected", func() bool {
		t, ok := h.app.top().(*livetable.Table)
		if !ok {
			return false
		}
		_, row, ok := t.Subject()
		return ok && row.Name == "web-7d9f-fghij"
	})
	h.lacks("<web-7d9f-fghij>")   // a click selects, it does not open
	h.click(h.cellAt("RESTARTS")) // (a double click on a header is a click)
	h.eventually("sort:RESTARTS↑")
	h.click(h.cellAt("RESTARTS"))
	h.eventually("sort:RESTARTS↓")
	h.click(h.cellAt("api-5c4b-zzzzz")) // a double click opens the row, as Enter does
	h.eventually("<api-5c4b-zzzzz>")
}

func splitLines(s string) []string { return strings.Split(s, "\n") }

// runeIndex is the cell (rune) position of sub in line, or -1.
func runeIndex(line, sub string) int {
	i := strings.Index(line, sub)
	if i < 0 {
		return -1
	}
	return utf8.RuneCountInString(line[:i])
}
