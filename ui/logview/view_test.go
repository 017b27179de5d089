package logview

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/logs"
	"kscope/ui"
)

// logLinesShown returns the rows of the logs pane, trimmed.
func logLinesShown(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.Trim(l, "║ ")
		if strings.Contains(l, "line-") {
			out = append(out, l)
		}
	}
	return out
}

func TestLogsOfOnePodFollowNewLines(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 300)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-300")
	lt.contains(v, "logs pods shop/web-7d9f-abcde web")
	lt.contains(v, "follow on (s)")
	lt.contains(v, "200 of 5000 lines kept")
	req := lt.cluster.logRequests()[0]
	if req.Container != "web" || !req.Follow || req.TailLines != 200 || !req.Timestamps || req.Previous {
		t.Fatalf("first request %+v, want container web, follow, tail 200, timestamps", req)
	}
	lt.cluster.addLog("shop", "web-7d9f-abcde", "web", t0, "web line-301 appended")
	lt.eventually(v, "web line-301 appended")
	shown := logLinesShown(lt.text(v))
	if last := shown[len(shown)-1]; last != "web line-301 appended" {
		t.Fatalf("last line shown %q, want the appended one at the bottom", last)
	}
	lt.lacks(v, t0.UTC().Format("2006-01-02T"))
	lt.press(v, tcell.KeyRune, 't')
	lt.eventually(v, t0.UTC().Format(time.RFC3339Nano)+" web line-301 appended")
}

func TestLogsSavedTextEqualsTheServersLog(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 250)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-250")
	lt.press(v, tcell.KeyCtrlS, 0)
	saved := lt.nav.Saved()
	if len(saved) != 1 || saved[0].Kind != "logs" || saved[0].Name != "shop-web-7d9f-abcde-20260101-120000.log" {
		t.Fatalf("saved files %+v, want logs/shop-web-7d9f-abcde-DATE-TIME.log", saved)
	}
	if m := lt.nav.Messages(); m[len(m)-1] != "saved 200 lines to logs/shop-web-7d9f-abcde-20260101-120000.log" {
		t.Fatalf("said %q", m)
	}
	var want strings.Builder
	for i := 51; i <= 250; i++ {
		fmt.Fprintf(&want, "web line-%d\n", i)
	}
	if got := string(saved[0].Data); got != want.String() {
		t.Fatalf("saved:\n%s\nwant the last 200 lines:\n%s", got, want.String())
	}
}

// TestLogsCopyTheLinesOnScreen: c copies the lines on screen, as shown.
func TestLogsCopyTheLinesOnScreen(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 3)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-3")
	lt.press(v, tcell.KeyRune, 'c')
	got := lt.nav.Copied()
	if len(got) != 1 || got[0].What != "the lines on screen" || got[0].Text != "web line-1\nweb line-2\nweb line-3\n" {
		t.Fatalf("copied %+v", got)
	}
}

func TestLogsSearchHighlightsAndMoves(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 100)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-100")
	search := func(text string) {
		t.Helper()
		lt.press(v, tcell.KeyRune, '/')
		if q := lt.nav.Questions(); q[len(q)-1].Label != "/" {
			t.Fatalf("asked %+v, want a search", q[len(q)-1])
		}
		lt.nav.Answer(text)
	}
	search("LINE-1[0-9]$") // capitals: case-sensitive, so nothing matches
	lt.untilError(`"LINE-1[0-9]$" not found`)
	search("line-1[0-9]$")
	if q := lt.nav.Questions(); q[len(q)-1].Initial != "LINE-1[0-9]$" {
		t.Errorf("the search asked again begins with %q, want the last one", q[len(q)-1].Initial)
	}
	lt.eventually(v, "</line-1[0-9]$> 1/10")
	if st, ok := lt.style(v, "line-10"); !ok || fg(st) != tcell.ColorBlack {
		t.Fatalf("the match is not highlighted: %v %v", st, ok)
	}
	lt.press(v, tcell.KeyRune, 'n')
	lt.eventually(v, "</line-1[0-9]$> 2/10")
	lt.press(v, tcell.KeyRune, 'N')
	lt.press(v, tcell.KeyRune, 'N')
	lt.eventually(v, "</line-1[0-9]$> 10/10")
	lt.contains(v, "follow off (s)")
	search("line-(")
	lt.untilError("not a regular expression")
	var used bool
	lt.nav.UI(func() { used = v.Escape() })
	if !used {
		t.Error("esc did not end the search")
	}
	lt.lacks(v, "</line-1")
}

func TestLogsRingDropsTheOldestAndSaysSo(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{Lines: 50})
	lt.seedLog("web-7d9f-abcde", "web", 120)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-120")
	lt.eventually(v, "50 of 50 lines kept, 70 older dropped")
	lt.press(v, tcell.KeyRune, 'g')
	lt.eventually(v, "web line-71")
	lt.lacks(v, "web line-70 ")
}

func TestLogsReconnectWithoutDuplicates(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 5)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-5")
	lt.cluster.endStreams("shop", "web-7d9f-abcde", "web")
	lt.eventually(v, "stream ended; reconnecting in 1s")
	lt.cluster.addLog("shop", "web-7d9f-abcde", "web", t0, "web line-6 while away")
	lt.waitClockWaiter()
	lt.nav.FakeClock().Step(time.Second)
	lt.eventually(v, "web line-6 while away")
	lt.eventually(v, "reconnected at")
	reqs := lt.cluster.logRequests()
	if len(reqs) != 2 || reqs[1].TailLines != 0 || !reqs[1].Since.Equal(t0.Add(-time.Second)) {
		t.Fatalf("requests %+v: want a second one since the last line read, without tail", reqs)
	}
	text := lt.text(v)
	var seen = map[string]int{}
	for _, l := range logLinesShown(text) {
		seen[l]++
	}
	for l, n := range seen {
		if n > 1 {
			t.Fatalf("%q shown %d times after the reconnect:\n%s", l, n, text)
		}
	}
	if len(seen) != 6 {
		t.Fatalf("lines shown %v, want 6", seen)
	}
}

// twoContainerPod is shop/web-7d9f-abcde with containers init, web and sidecar, sidecar the default.
func twoContainerPod() *unstructured.Unstructured {
	pod := podObject("web-7d9f-abcde")
	pod.SetAnnotations(map[string]string{logs.DefaultContainerAnnotation: "sidecar"})
	_ = unstructured.SetNestedSlice(pod.Object, []any{map[string]any{"name": "web"}, map[string]any{"name": "sidecar"}}, "spec", "containers")
	_ = unstructured.SetNestedSlice(pod.Object, []any{map[string]any{"name": "init"}}, "spec", "initContainers")
	return pod
}

func TestLogsContainerPickerPreselectsTheDefault(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.cluster.put(podsGVR, twoContainerPod())
	lt.seedLog("web-7d9f-abcde", "web", 3)
	lt.seedLog("web-7d9f-abcde", "sidecar", 3)
	lt.seedLog("web-7d9f-abcde", "init", 3)
	lt.open(podsRes, "web-7d9f-abcde", false)
	c := lt.nav.Choices()
	if len(c) != 1 || c[0].Title != "logs of web-7d9f-abcde: which container?" ||
		strings.Join(c[0].Items, ",") != "init,web,sidecar,(all containers)" || c[0].Items[c[0].Selected] != "sidecar" {
		t.Fatalf("asked %+v, want which container, the default sidecar preselected, and all of them", c)
	}
	lt.nav.Pick(c[0].Selected) // Enter: the default, sidecar
	v := lt.top()
	lt.eventually(v, "sidecar line-3")
	lt.lacks(v, "web line-3")

	lt.nav.UI(v.Close) // esc, then l again
	lt.open(podsRes, "web-7d9f-abcde", false)
	lt.nav.Pick(c[0].Selected + 1) // down, Enter: all containers, each line prefixed as kubectl logs --prefix
	v = lt.top()
	lt.eventually(v, "[pod/web-7d9f-abcde/init] init line-3")
	lt.eventually(v, "[pod/web-7d9f-abcde/web] web line-3")
	lt.eventually(v, "[pod/web-7d9f-abcde/sidecar] sidecar line-3")
}

func TestPreviousLogsAskForThePreviousInstance(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 3)
	v := lt.openPod("web-7d9f-abcde", true)
	lt.eventually(v, "web line-3")
	lt.contains(v, "(previous)")
	req := lt.cluster.logRequests()[0]
	if !req.Previous || req.Follow {
		t.Fatalf("request %+v, want previous without follow", req)
	}
}

func TestLogsOfADeploymentFollowItsPods(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	for _, pod := range []string{"web-7d9f-abcde", "web-7d9f-fghij"} {
		lt.seedLog(pod, "web", 2)
	}
	lt.open(deploymentsRes, "web", false)
	v := lt.top()
	lt.eventually(v, "[pod/web-7d9f-abcde/web] web line-2")
	lt.eventually(v, "[pod/web-7d9f-fghij/web] web line-2")
	lt.lacks(v, "api-5c4b")
	lt.contains(v, "logs deployments shop/web")

	// a pod that goes away is no longer followed
	src := lt.cluster.lastSource()
	src.Delete("shop/web-7d9f-fghij")
	lt.until("the gone pod's follower stopped", func() bool {
		_, running := v.run["web-7d9f-fghij/web"]
		return !running && len(v.run) == 1
	})
}

func TestLogsRefusedWhereThereAreNone(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.open(secretsRes, "creds", false)
	lt.untilError("secrets have no logs")
	if n := len(lt.cluster.logRequests()); n != 0 || len(lt.nav.Pushed()) != 0 {
		t.Fatalf("%d log requests, %d views pushed", n, len(lt.nav.Pushed()))
	}
}

// TestLogsSayWhyAStreamFails: a log that cannot be read says why in the title, in red, until it is read.
func TestLogsSayWhyAStreamFails(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 3)
	lt.cluster.failLogs("shop", "web-7d9f-abcde", "web", errors.New("the kubelet is unreachable"))
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "the kubelet is unreachable; reconnecting in 1s")
	if st, ok := lt.style(v, "the kubelet is unreachable"); !ok || fg(st) != tcell.ColorRed {
		t.Errorf("the error is not red: %v %v", st, ok)
	}
	lt.waitClockWaiter()
	lt.nav.FakeClock().Step(time.Second)
	lt.eventually(v, "web line-3")
	lt.lacks(v, "unreachable")
}

// TestLogsOfTheContainerGiven: settings.Container (the containers view's choice) reads that one container of
// the pod, without asking.
func TestLogsOfTheContainerGiven(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{Container: "web"})
	lt.cluster.put(podsGVR, twoContainerPod())
	lt.seedLog("web-7d9f-abcde", "web", 3)
	lt.seedLog("web-7d9f-abcde", "sidecar", 3)
	lt.open(podsRes, "web-7d9f-abcde", false)
	if c := lt.nav.Choices(); len(c) != 0 {
		t.Fatalf("asked %+v, want no question", c)
	}
	v := lt.top()
	lt.eventually(v, "web line-3")
	lt.lacks(v, "sidecar line-3")
}
