package logview

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Escape ends the search.
func (v *View) Escape() bool {
	if v.search == "" {
		return false
	}
	v.setSearch("")
	return true
}

// openSearchBar asks for a search on the prompt line, beginning with the current one.
func (v *View) openSearchBar() { v.nav.Ask("/", v.search, v.setSearch) }

// setSearch marks the lines matching text (a regular expression, case-insensitive unless it has capitals)
// and shows the first match from the top of the screen.
func (v *View) setSearch(text string) {
	if text == "" {
		v.search, v.pane.focus = "", -1
		v.ring.SetSearch(nil, v.pane.timestamps)
		v.render()
		return
	}
	re, err := compileSearch(text)
	if err != nil {
		v.nav.Errorf("%s", err.Error())
		return
	}
	v.search = text
	v.ring.SetSearch(re, v.pane.timestamps)
	v.pane.focus = -1
	if seq, ok := v.ring.NextHit(v.pane.top-1, true); ok {
		v.pane.show(seq)
	} else {
		v.nav.Errorf("%q not found in the %d lines kept", text, v.ring.Len())
	}
	v.render()
}

// compileSearch compiles a search: case-insensitive unless it has an upper-case letter (smart case).
func compileSearch(text string) (*regexp.Regexp, error) {
	expr := text
	if !strings.ContainsFunc(text, unicode.IsUpper) {
		expr = "(?i)" + text
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("not a regular expression: %q (%s)", text, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

// nextMatch shows the next matching line (forward) or the previous one.
func (v *View) nextMatch(forward bool) {
	if v.search == "" {
		return
	}
	from := v.pane.focus
	if from < v.ring.Dropped() {
		from = v.pane.top - 1
	}
	if seq, ok := v.ring.NextHit(from, forward); ok {
		v.pane.show(seq)
	}
	v.render()
}
