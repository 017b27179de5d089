package logview

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rivo/tview"
)

// render sets the title and the status line.
func (v *View) render() {
	s := v.logs
	th := v.nav.Theme()
	title := fmt.Sprintf(" %slogs%s %s/%s", th.Title, th.Counter, tview.Escape(s.kind), tview.Escape(s.name))
	if s.namespace != "" {
		title = fmt.Sprintf(" %slogs%s %s %s/%s", th.Title, th.Counter, tview.Escape(s.kind), tview.Escape(s.namespace), tview.Escape(s.name))
	}
	if s.selector == "" && len(s.containers) == 1 {
		title += " [gray]" + tview.Escape(s.containers[0])
	}
	if s.previous {
		title += " [yellow](previous)"
	}
	title += " [gray]· " + v.span.Label(v.tailLines()) + tview.Escape(v.jsonTitle())
	title += th.Counter + " "
	if f := v.ring.Filter(); f != nil {
		title += fmt.Sprintf("%s&%s %d/%d[-::-] ", th.Filter, tview.Escape(f.String()), v.ring.Shown(), v.ring.Len())
	}
	if v.search != "" {
		title += fmt.Sprintf("%s</%s> %s[-::-] ", th.Filter, tview.Escape(v.search), v.matchCount())
	}
	v.pane.SetTitle(title + v.stateText())
	v.nav.UpdateStatus(v)
}

// stateText is the followers' states, one per line of trouble ("" when all stream normally).
func (v *View) stateText() string {
	keys := make([]string, 0, len(v.state))
	for k := range v.state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		st := v.state[k]
		colour := "[gray]"
		if st.Error {
			colour = "[red]"
		}
		who := k
		if !v.logs.prefixed() {
			who = ""
		} else {
			who += ": "
		}
		parts = append(parts, colour+tview.Escape(who+st.Text)+"[-]")
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + " "
}

// matchCount is the search's place among its matches ("3/10"), or how many lines match.
func (v *View) matchCount() string {
	if v.ring.Hits() == 0 {
		return "0 lines"
	}
	if v.pane.focus >= v.ring.Dropped() {
		return fmt.Sprintf("%d/%d", v.ring.HitRank(v.pane.focus), v.ring.Hits())
	}
	return fmt.Sprintf("%d lines", v.ring.Hits())
}

// Status says how the view follows and what it keeps.
func (v *View) Status() string {
	on := v.nav.Theme().On
	text := ""
	if f := v.ring.Filter(); f != nil {
		text = fmt.Sprintf("[yellow]filter %s: %d of %d lines shown[-] (esc: all)  ", tview.Escape(f.String()), v.ring.Shown(), v.ring.Len())
	}
	text += fmt.Sprintf("follow %s (s)  timestamps %s (t)  wrap %s (w)  %d of %d lines kept",
		on(v.pane.follow), on(v.pane.timestamps), on(v.pane.wrap), v.ring.Len(), v.ring.Capacity())
	if n := v.ring.Dropped(); n > 0 {
		text += fmt.Sprintf(", [yellow]%d older dropped[-]", n)
	}
	text += fmt.Sprintf(" (%s of %s)", strings.TrimSuffix(mebibytes(v.ring.Size()), " MiB"), mebibytes(v.ring.Budget()))
	if !v.pane.follow {
		if behind := v.ring.Next() - 1 - v.pane.top; behind > int64(v.pane.height) {
			text += "  [yellow]paused: G or s to follow[-]"
		}
	}
	return text
}

// mebibytes is n bytes for the logs view's status line: "0.3 MiB", "16 MiB".
func mebibytes(n int) string {
	const mib = 1 << 20
	if n%mib == 0 || n >= 10*mib {
		return fmt.Sprintf("%d MiB", (n+mib/2)/mib)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/mib)
}
