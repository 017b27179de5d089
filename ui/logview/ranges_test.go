package logview

import (
	"strconv"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/ui"
)

// TestLogsTimeRanges: the range keys read the logs again from the span they say (sinceSeconds, tail, all),
// the title says the range, the filter stays on, and new lines come after.
func TestLogsTimeRanges(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 4000) // a line a second, the last a second before t0
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-4000")
	lt.contains(v, "logs pods shop/web-7d9f-abcde web · tail 200")
	lt.contains(v, "200 of 5000 lines kept")
	lt.filterWith(v, "!line-39[0-9][0-9]$") // hides the last hundred lines (3900..3999) but 4000

	for _, tc := range []struct {
		key         rune
		title       string
		kept, shown int
		tail, since int64
	}{
		{key: '1', title: "since 1m", kept: 60, shown: 1, since: 60},
		{key: '2', title: "since 5m", kept: 300, shown: 200, since: 300},
		{key: '3', title: "since 15m", kept: 900, shown: 800, since: 900},
		{key: '4', title: "since 30m", kept: 1800, shown: 1700, since: 1800},
		{key: '5', title: "since 1h", kept: 3600, shown: 3500, since: 3600},
		{key: '6', title: "all", kept: 4000, shown: 3900},
		{key: '0', title: "tail 200", kept: 200, shown: 100, tail: 200},
	} {
		before := len(lt.cluster.logRequests())
		lt.press(v, tcell.KeyRune, tc.key)
		lt.eventually(v, "· "+tc.title)
		lt.eventually(v, fmtShown(tc.shown, tc.kept))
		reqs := lt.cluster.logRequests()
		if len(reqs) != before+1 {
			t.Fatalf("%c: %d requests, want one more", tc.key, len(reqs)-before)
		}
		if r := reqs[len(reqs)-1]; r.TailLines != tc.tail || r.SinceSeconds != tc.since || !r.Since.IsZero() || !r.Follow {
			t.Fatalf("%c: request %+v, want tail %d, sinceSeconds %d, following", tc.key, r, tc.tail, tc.since)
		}
		lt.contains(v, "web line-4000")
	}
	lt.cluster.addLog("shop", "web-7d9f-abcde", "web", t0, "web line-4001 after")
	lt.eventually(v, "web line-4001 after")
	lt.eventually(v, fmtShown(101, 201))
}

// fmtShown is the filter's count on the status line.
func fmtShown(shown, kept int) string {
	return "filter !line-39[0-9][0-9]$: " + itoa(shown) + " of " + itoa(kept) + " lines shown"
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestLogsTimeRangeOfAWorkload: a range key reads every pod's log again, each once, with its prefix.
func TestLogsTimeRangeOfAWorkload(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	for _, pod := range []string{"web-7d9f-abcde", "web-7d9f-fghij"} {
		lt.seedLog(pod, "web", 300)
	}
	lt.open(deploymentsRes, "web", false)
	v := lt.top()
	lt.eventually(v, "400 of 5000 lines kept")
	before := len(lt.cluster.logRequests())
	lt.press(v, tcell.KeyRune, '6')
	lt.eventually(v, "600 of 5000 lines kept")
	lt.contains(v, "logs deployments shop/web · all")
	reqs := lt.cluster.logRequests()[before:]
	if len(reqs) != 2 || reqs[0].Pod == reqs[1].Pod || reqs[0].TailLines != 0 || reqs[1].TailLines != 0 {
		t.Fatalf("requests after 6: %+v, want one per pod, without tail", reqs)
	}
	lt.press(v, tcell.KeyRune, 'g')
	lt.eventually(v, "/web] web line-1 ") // the first line of either pod
}
