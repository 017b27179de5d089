package logview

import (
	"kscope/logs"
)

// Escape ends the search, else the filter.
func (v *View) Escape() bool {
	switch {
	case v.search != "":
		v.setSearch("")
	case v.ring.Filter() != nil:
		v.setFilter("")
	default:
		return false
	}
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
	re, err := logs.CompileSmartCase(text)
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
		if v.ring.Filter() != nil {
			v.nav.Errorf("%q not found in the %d lines shown", text, v.ring.Shown())
		} else {
			v.nav.Errorf("%q not found in the %d lines kept", text, v.ring.Len())
		}
	}
	v.render()
}

// filterLabel is the prompt of the filter.
const filterLabel = "filter (!: not matching) "

// openFilterBar asks for a filter on the prompt line, beginning with the current one.
func (v *View) openFilterBar() { v.nav.Ask(filterLabel, v.ring.Filter().String(), v.setFilter) }

// setFilter hides the lines that do not match text, now and as they come (a regular expression as the
// search's; a leading "!" hides those that match); "" shows every line again. An invalid expression is said
// on the prompt line and changes nothing.
func (v *View) setFilter(text string) {
	f, err := logs.ParseFilter(text)
	if err != nil {
		v.nav.Errorf("filter: %s", err.Error())
		return
	}
	v.ring.SetFilter(f, v.pane.timestamps)
	if l, ok := v.ring.At(v.pane.focus); !ok || l.Hidden {
		v.pane.focus = -1
	}
	v.pane.topRow = 0
	v.pane.clampTop()
	v.render()
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
