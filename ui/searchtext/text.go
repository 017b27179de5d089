package searchtext

import (
	"fmt"
	"strings"

	"github.com/rivo/tview"

	"kscope/ui"
)

// Text is a TextView with a case-insensitive search: every match highlighted in a numbered region, Next
// moving to the next. UI goroutine only.
type Text struct {
	view    *tview.TextView
	search  string
	matches int
	current int
}

// New returns a bordered, unwrapped Text showing "loading …".
func New() *Text {
	v := tview.NewTextView().SetDynamicColors(true).SetRegions(true).SetWrap(false)
	v.SetBorder(true)
	v.SetText("loading …")
	return &Text{view: v}
}

// View is the TextView (to set its title, to lay it out).
func (s *Text) View() *tview.TextView { return s.view }

// Show replaces the text, keeping the scroll position: lines holding a match are marked, the others go
// through colour (which returns tview markup; nil shows them as they are).
func (s *Text) Show(text string, colour func(line string) string) {
	if colour == nil {
		colour = tview.Escape
	}
	s.ShowIndexed(text, func(_ int, line string) string { return colour(line) })
}

// ShowIndexed is Show with a colour function that gets each line's index (from 0).
func (s *Text) ShowIndexed(text string, colour func(i int, line string) string) {
	var b strings.Builder
	matches := 0
	lower := strings.ToLower(s.search)
	for i, line := range strings.SplitAfter(text, "\n") {
		if s.search != "" && len(strings.ToLower(line)) == len(line) && strings.Contains(strings.ToLower(line), lower) {
			b.WriteString(markMatches(line, lower, &matches))
			continue
		}
		b.WriteString(colour(i, line))
	}
	s.matches = matches
	row, col := s.view.GetScrollOffset()
	s.view.SetText(b.String())
	s.view.ScrollTo(row, col)
	if s.current >= matches {
		s.current = 0
	}
	if matches > 0 {
		s.view.Highlight(fmt.Sprintf("m%d", s.current))
	}
}

// Title is the search part of the view's title ("" without a search).
func (s *Text) Title() string {
	if s.search == "" {
		return ""
	}
	return fmt.Sprintf("[orange::b]</%s> %d/%d ", tview.Escape(s.search), min(s.current+1, s.matches), s.matches)
}

// SetSearch starts a search for text (render must show the text again); it reports whether text was found.
func (s *Text) SetSearch(text string, render func()) bool {
	s.search, s.current = text, 0
	render()
	if s.matches > 0 {
		s.view.ScrollToHighlight()
	}
	return text == "" || s.matches > 0
}

// SearchFor starts a search for text, showing the text again through render, and tells the user when text
// is not found.
func (s *Text) SearchFor(nav ui.Navigator, text string, render func()) {
	if !s.SetSearch(text, render) {
		nav.Errorf("%q not found", text)
	}
}

// Clear ends the search (esc); it tells whether there was one.
func (s *Text) Clear(render func()) bool {
	if s.search == "" {
		return false
	}
	s.SetSearch("", render)
	return true
}

// Next moves to the next match, after the last back to the first.
func (s *Text) Next(render func()) {
	if s.matches > 0 {
		s.current = (s.current + 1) % s.matches
		render()
		s.view.ScrollToHighlight()
	}
}

// markMatches wraps each occurrence of lower (already lower-case) in line in a numbered region.
func markMatches(line, lower string, n *int) string {
	var b strings.Builder
	ll := strings.ToLower(line)
	for {
		i := strings.Index(ll, lower)
		if i < 0 || len(lower) == 0 {
			b.WriteString(tview.Escape(line))
			return b.String()
		}
		b.WriteString(tview.Escape(line[:i]))
		fmt.Fprintf(&b, `["m%d"][black:yellow]%s[-:-][""]`, *n, tview.Escape(line[i:i+len(lower)]))
		*n++
		line, ll = line[i+len(lower):], ll[i+len(lower):]
	}
}
