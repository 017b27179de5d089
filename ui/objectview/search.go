package objectview

import (
	"fmt"
	"strings"

	"github.com/rivo/tview"

	"kscope/apierr"
	"kscope/ui"
)

// searchText is a TextView with a case-insensitive search: every match highlighted in a numbered region,
// `n` moving to the next. The YAML and describe views show their text through it. UI goroutine only.
type searchText struct {
	view    *tview.TextView
	search  string
	matches int
	current int
}

// newSearchText returns a bordered, unwrapped TextView showing "loading …".
func newSearchText() *searchText {
	v := tview.NewTextView().SetDynamicColors(true).SetRegions(true).SetWrap(false)
	v.SetBorder(true)
	v.SetText("loading …")
	return &searchText{view: v}
}

// show replaces the text, keeping the scroll position: lines holding a match are marked, the others go
// through colour (which returns tview markup; nil shows them as they are).
func (s *searchText) show(text string, colour func(line string) string) {
	if colour == nil {
		colour = tview.Escape
	}
	markup, n := markupLines(text, s.search, colour)
	s.matches = n
	row, col := s.view.GetScrollOffset()
	s.view.SetText(markup)
	s.view.ScrollTo(row, col)
	if s.current >= n {
		s.current = 0
	}
	if n > 0 {
		s.view.Highlight(fmt.Sprintf("m%d", s.current))
	}
}

// title is the search part of the view's title ("" without a search).
func (s *searchText) title() string {
	if s.search == "" {
		return ""
	}
	return fmt.Sprintf("[orange::b]</%s> %d/%d ", tview.Escape(s.search), min(s.current+1, s.matches), s.matches)
}

// setSearch starts a search for text (render must re-show the text); it reports whether text was found.
func (s *searchText) setSearch(text string, render func()) bool {
	s.search, s.current = text, 0
	render()
	if s.matches > 0 {
		s.view.ScrollToHighlight()
	}
	return text == "" || s.matches > 0
}

// searchFor starts a search for text, re-showing the text through render, and tells the user when text
// is not found.
func (s *searchText) searchFor(nav ui.Navigator, text string, render func()) {
	if !s.setSearch(text, render) {
		nav.Errorf("%q not found", text)
	}
}

// clear ends the search (esc); it tells whether there was one.
func (s *searchText) clear(render func()) bool {
	if s.search == "" {
		return false
	}
	s.setSearch("", render)
	return true
}

// titleState is the part of an object view's title that says the object was deleted, or the last error
// ("" while it is live).
func titleState(deleted bool, err error) string {
	switch {
	case deleted:
		return "[red::b](deleted) "
	case err != nil:
		return "[red]" + tview.Escape(apierr.OneLine(err.Error())) + " "
	}
	return ""
}

// next moves to the next match, after the last back to the first.
func (s *searchText) next(render func()) {
	if s.matches > 0 {
		s.current = (s.current + 1) % s.matches
		render()
		s.view.ScrollToHighlight()
	}
}

// markupLines escapes text for a tview TextView, passing each line through colour, and wraps every
// case-insensitive occurrence of search in a region "m<i>" (highlighted in yellow). It returns the markup
// and the number of matches.
func markupLines(text, search string, colour func(line string) string) (string, int) {
	var b strings.Builder
	matches := 0
	lower := strings.ToLower(search)
	for _, line := range strings.SplitAfter(text, "\n") {
		if search != "" && len(strings.ToLower(line)) == len(line) && strings.Contains(strings.ToLower(line), lower) {
			b.WriteString(markMatches(line, lower, &matches))
			continue
		}
		b.WriteString(colour(line))
	}
	return b.String(), matches
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
