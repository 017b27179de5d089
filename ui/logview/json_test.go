package logview

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/ui"
)

// TestLogsJSONLines: J shows JSON lines indented (keys colored), then as the fields chosen among those seen,
// then as read; other lines stay as read, and copy keeps the lines as read.
func TestLogsJSONLines(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	const pod = "web-7d9f-abcde"
	lt.cluster.addLog("shop", pod, "web", t0.Add(-3e9), `{"ts":"10:00:01","level":"info","msg":"line-1 ok","user":{"id":7}}`)
	lt.cluster.addLog("shop", pod, "web", t0.Add(-2e9), `plain line-2 [red]not markup`)
	lt.cluster.addLog("shop", pod, "web", t0.Add(-1e9), `{"level":"warn","msg":"line-3 [slow]","took":812}`)
	v := lt.openPod(pod, false)
	lt.eventually(v, `{"level":"warn","msg":"line-3 [slow]","took":812}`)

	lt.press(v, tcell.KeyRune, 'J')
	lt.eventually(v, "· JSON pretty")
	for _, row := range []string{`║{`, `║  "level": "info",`, `║  "user": {`, `║    "id": 7`, `║  }`, `║plain line-2 [red]not markup`, `║  "msg": "line-3 [slow]",`, `║  "took": 812`} {
		lt.contains(v, row)
	}
	if st, ok := lt.style(v, `"took"`); !ok || fg(st) != tcell.ColorAqua {
		t.Fatalf("a key is not colored: %v %v", fg(st), ok)
	}
	lt.press(v, tcell.KeyRune, 'c')
	copied := lt.nav.Copied()
	if got := copied[len(copied)-1].Text; !strings.Contains(got, `{"level":"warn","msg":"line-3 [slow]","took":812}`+"\n") {
		t.Fatalf("copied %q, want the lines as read", got)
	}

	lt.press(v, tcell.KeyRune, 'J')
	q := lt.nav.Questions()
	if last := q[len(q)-1]; last.Label != "JSON fields (of level msg took ts user) " || last.Initial != "level,msg,ts" {
		t.Fatalf("asked %+v, want the fields seen (newest lines first) and the usual ones proposed", last)
	}
	lt.nav.Answer("level, msg took")
	lt.eventually(v, "· JSON level,msg,took")
	lt.contains(v, `║level=info msg="line-1 ok"`)
	lt.contains(v, `║level=warn msg="line-3 [slow]" took=812`)
	lt.contains(v, `║plain line-2 [red]not markup`)

	lt.press(v, tcell.KeyRune, 'J')
	lt.eventually(v, `║{"ts":"10:00:01","level":"info","msg":"line-1 ok","user":{"id":7}}`)
	lt.lacks(v, "· JSON")

	lt.press(v, tcell.KeyRune, 'J')
	lt.press(v, tcell.KeyRune, 'J')
	if q := lt.nav.Questions(); q[len(q)-1].Initial != "level,msg,took" {
		t.Fatalf("the fields asked again begin with %q, want the last chosen", q[len(q)-1].Initial)
	}
}

// TestLogsJSONFieldsWithoutJSON: asking for fields where no line is JSON says so, and shows the lines as read.
func TestLogsJSONFieldsWithoutJSON(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 3)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-3")
	asked := len(lt.nav.Questions())
	lt.press(v, tcell.KeyRune, 'J')
	lt.eventually(v, "· JSON pretty")
	lt.press(v, tcell.KeyRune, 'J')
	lt.untilError("no JSON object among the 3 lines shown")
	lt.lacks(v, "· JSON")
	if len(lt.nav.Questions()) != asked {
		t.Fatal("asked for fields with no JSON line")
	}
}
