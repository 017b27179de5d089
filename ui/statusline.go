package ui

import (
	"fmt"
	"strings"

	"github.com/rivo/tview"

	"kscope/discovery"
	"kscope/ui/theme"
)

// StatusLine is the bottom line: the view's sync state, rows shown/total, sort and filter, the last error,
// and the API groups discovery could not read. UI goroutine only.
type StatusLine struct {
	view  *tview.TextView
	theme *theme.Theme
}

// NewStatusLine returns an empty status line.
func NewStatusLine() *StatusLine {
	return &StatusLine{view: tview.NewTextView().SetDynamicColors(true).SetWrap(false), theme: theme.Default()}
}

// SetView shows the view's own status text followed by the unavailable API groups.
func (s *StatusLine) SetView(text string, unavailable []discovery.Unavailable) {
	if len(unavailable) > 0 {
		gvs := make([]string, len(unavailable))
		for i, u := range unavailable {
			gvs[i] = u.GroupVersion
		}
		if text != "" {
			text += "  "
		}
		text += fmt.Sprintf("[yellow]unavailable: %s[-]", tview.Escape(strings.Join(gvs, ",")))
	}
	s.view.SetText(text)
}

// ShowCandidates shows a Tab's candidates (grey) in place of the view's text, until the next SetView.
func (s *StatusLine) ShowCandidates(candidates []string) {
	s.view.SetText(s.theme.Suggest + tview.Escape(strings.Join(candidates, "  ")) + "[-]")
}
