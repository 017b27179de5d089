package logview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/ui"
)

// webLines returns the rows of the logs pane that are lines of container web.
func webLines(text string) []string {
	var out []string
	for _, l := range logLinesShown(text) {
		if strings.HasPrefix(l, "web line-") {
			out = append(out, l)
		}
	}
	return out
}

// filterWith presses the filter key and answers its question with text.
func (lt *logsTest) filterWith(v *View, text string) {
	lt.t.Helper()
	lt.press(v, tcell.KeyRune, '&')
	q := lt.nav.Questions()
	if len(q) == 0 || q[len(q)-1].Label != filterLabel {
		lt.t.Fatalf("asked %+v, want the filter", q)
	}
	lt.nav.Answer(text)
}

// TestLogsFilterHidesLinesLive: & hides the lines not matching (new ones too), !REGEX those matching, the
// status counts them, an invalid expression is said and changes nothing, esc shows every line again; copy
// and save keep to the lines shown.
func TestLogsFilterHidesLinesLive(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 40)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-40")

	lt.filterWith(v, "line-3[0-9]$")
	lt.eventually(v, "filter line-3[0-9]$: 10 of 40 lines shown")
	lt.contains(v, "&line-3[0-9]$ 10/40")
	if shown := webLines(lt.text(v)); len(shown) != 10 || shown[0] != "web line-30" || shown[9] != "web line-39" {
		t.Fatalf("lines shown under the filter: %q, want lines 30 to 39", shown)
	}
	lt.cluster.addLog("shop", "web-7d9f-abcde", "web", t0, "web line-41 no match")
	lt.cluster.addLog("shop", "web-7d9f-abcde", "web", t0, "web line-35 again")
	lt.eventually(v, "filter line-3[0-9]$: 10 of 42 lines shown")
	lt.cluster.addLog("shop", "web-7d9f-abcde", "web", t0, "web line-36")
	lt.eventually(v, "11 of 43 lines shown")
	lt.lacks(v, "line-41")
	if shown := webLines(lt.text(v)); shown[len(shown)-1] != "web line-36" {
		t.Fatalf("the last line shown is %q, want the new matching one at the bottom", shown[len(shown)-1])
	}

	lt.filterWith(v, "!line-[1-3]")
	lt.eventually(v, "filter !line-[1-3]: 8 of 43 lines shown")
	if shown := webLines(lt.text(v)); len(shown) != 8 || shown[0] != "web line-4" || shown[len(shown)-1] != "web line-41 no match" {
		t.Fatalf("lines shown under the inverted filter: %q", shown)
	}
	lt.press(v, tcell.KeyRune, 'c')
	copied := lt.nav.Copied()
	if got := copied[len(copied)-1].Text; got != "web line-4\nweb line-5\nweb line-6\nweb line-7\nweb line-8\nweb line-9\nweb line-40\nweb line-41 no match\n" {
		t.Fatalf("copied %q, want the 8 lines shown", got)
	}
	lt.press(v, tcell.KeyCtrlS, 0)
	saved := lt.nav.Saved()
	var want strings.Builder
	for i := 4; i <= 9; i++ {
		fmt.Fprintf(&want, "web line-%d\n", i)
	}
	want.WriteString("web line-40\nweb line-41 no match\n")
	if got := string(saved[len(saved)-1].Data); got != want.String() {
		t.Fatalf("saved %q, want the 8 lines shown", got)
	}
	if m := lt.nav.Messages(); !strings.HasPrefix(m[len(m)-1], "saved 8 lines to ") {
		t.Fatalf("said %q", m[len(m)-1])
	}

	lt.filterWith(v, "!line-(")
	lt.untilError(`filter: not a regular expression: "line-("`)
	lt.contains(v, "filter !line-[1-3]: 8 of 43 lines shown")
	if q := lt.nav.Questions(); q[len(q)-1].Initial != "!line-[1-3]" {
		t.Errorf("the filter asked again begins with %q, want the current one", q[len(q)-1].Initial)
	}

	var used bool
	lt.nav.UI(func() { used = v.Escape() })
	if !used {
		t.Fatal("esc did not clear the filter")
	}
	lt.lacks(v, "filter !line")
	lt.eventually(v, "web line-36")
	if shown := webLines(lt.text(v)); len(shown) < 20 {
		t.Fatalf("after esc, %d lines shown, want the screen full", len(shown))
	}
	lt.nav.UI(func() { used = v.Escape() })
	if used {
		t.Fatal("esc without a filter or search was used (it goes back)")
	}
}

// TestLogsSearchWithinTheFilter: the search finds only the lines the filter shows, and esc ends the search
// before the filter.
func TestLogsSearchWithinTheFilter(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 30)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-30")
	lt.filterWith(v, "[02468]$")
	lt.eventually(v, "15 of 30 lines shown")
	lt.press(v, tcell.KeyRune, '/')
	lt.nav.Answer("line-2")
	lt.eventually(v, "</line-2> 1/6") // 2, 20, 22, 24, 26, 28
	var used bool
	lt.nav.UI(func() { used = v.Escape() })
	if !used {
		t.Fatal("esc did not end the search")
	}
	lt.lacks(v, "</line-2>")
	lt.contains(v, "15 of 30 lines shown")
}

// TestLogsScrollSkipsHiddenLines: under a filter, g, j, k and G move over the lines shown only.
func TestLogsScrollSkipsHiddenLines(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 200)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-200")
	lt.filterWith(v, "0$")
	lt.eventually(v, "20 of 200 lines shown") // 10, 20 … 200
	first := func() string {
		t.Helper()
		shown := webLines(lt.text(v))
		if len(shown) == 0 {
			t.Fatal("no line shown")
		}
		return shown[0]
	}
	lt.filterWith(v, "[05]$")
	lt.eventually(v, "40 of 200 lines shown") // 5, 10 … 200: more than a screen
	lt.press(v, tcell.KeyRune, 'g')
	if got := first(); got != "web line-5" {
		t.Fatalf("g: the first row is %q, want web line-5", got)
	}
	lt.press(v, tcell.KeyRune, 'j')
	if got := first(); got != "web line-10" {
		t.Fatalf("j: the first row is %q, want web line-10 (the next shown)", got)
	}
	lt.press(v, tcell.KeyRune, 'k')
	lt.press(v, tcell.KeyRune, 'k')
	if got := first(); got != "web line-5" {
		t.Fatalf("k k: the first row is %q, want web line-5", got)
	}
	lt.contains(v, "follow off (s)")
	lt.press(v, tcell.KeyRune, 'G')
	lt.contains(v, "follow on (s)")
	if shown := webLines(lt.text(v)); shown[len(shown)-1] != "web line-200" || len(shown) != 27 {
		t.Fatalf("G: rows %q, want a screen of lines shown ending with web line-200", shown)
	}
}
