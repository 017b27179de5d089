package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/logs"
)

// seedLog gives shop/web-7d9f-abcde's container c n lines "c line-I", one a second before t0.
func seedLog(h *harness, pod, c string, n int) {
	for i := 1; i <= n; i++ {
		h.cluster.addLog("shop", pod, c, t0.Add(time.Duration(i-n-1)*time.Second), fmt.Sprintf("%s line-%d", c, i))
	}
}

// openPodLogs starts on the pods table, selects pod by filtering and presses key ('l' or 'p').
func openPodLogs(t *testing.T, opts func(*Options), prepare func(*harness), pod string, key rune) *harness {
	h := start(t, 120, 30, func(o *Options) {
		o.Resource = "pods"
		if opts != nil {
			opts(o)
		}
	})
	if prepare != nil {
		prepare(h)
	}
	h.press(tcell.KeyRune, '/')
	h.typeText(pod + "\n")
	before := h.app.top()
	h.press(tcell.KeyRune, key)
	h.until("a logs view, a container picker or a message", func() bool {
		return h.app.top() != before || h.app.modal != nil || h.app.bar.ShownMessage() != ""
	})
	return h
}

// logLinesShown returns the rows of the logs pane, trimmed.
func logLinesShown(h *harness) []string {
	var out []string
	for _, l := range strings.Split(h.text(), "\n") {
		l = strings.Trim(l, "║ ")
		if strings.Contains(l, "line-") {
			out = append(out, l)
		}
	}
	return out
}

func TestLogsOfOnePodFollowNewLines(t *testing.T) {
	h := openPodLogs(t, nil, func(h *harness) { seedLog(h, "web-7d9f-abcde", "web", 300) }, "web-7d9f-abcde", 'l')
	h.eventually("web line-300")
	h.contains("logs pods shop/web-7d9f-abcde web")
	h.contains("follow on (s)")
	h.contains("200 of 5000 lines kept")
	req := h.cluster.logRequests()[0]
	if req.Container != "web" || !req.Follow || req.TailLines != 200 || !req.Timestamps || req.Previous {
		t.Fatalf("first request %+v, want container web, follow, tail 200, timestamps", req)
	}
	h.cluster.addLog("shop", "web-7d9f-abcde", "web", t0, "web line-301 appended")
	h.eventually("web line-301 appended")
	shown := logLinesShown(h)
	if last := shown[len(shown)-1]; last != "web line-301 appended" {
		t.Fatalf("last line shown %q, want the appended one at the bottom", last)
	}
	h.lacks(t0.UTC().Format("2006-01-02T"))
	h.press(tcell.KeyRune, 't')
	h.eventually(t0.UTC().Format(time.RFC3339Nano) + " web line-301 appended")
}

func TestLogsSavedTextEqualsTheServersLog(t *testing.T) {
	dir := t.TempDir()
	h := openPodLogs(t, func(o *Options) { o.SaveDir = dir }, func(h *harness) { seedLog(h, "web-7d9f-abcde", "web", 250) },
		"web-7d9f-abcde", 'l')
	h.eventually("web line-250")
	h.press(tcell.KeyCtrlS, 0)
	h.eventually("saved 200 lines to ")
	files, _ := filepath.Glob(filepath.Join(dir, "logs", "shop-web-7d9f-abcde-*.log"))
	if len(files) != 1 {
		t.Fatalf("saved files %q", files)
	}
	got, _ := os.ReadFile(files[0])
	var want strings.Builder
	for i := 51; i <= 250; i++ {
		fmt.Fprintf(&want, "web line-%d\n", i)
	}
	if string(got) != want.String() {
		t.Fatalf("saved:\n%s\nwant the last 200 lines:\n%s", got, want.String())
	}
}

func TestLogsSearchHighlightsAndMoves(t *testing.T) {
	h := openPodLogs(t, nil, func(h *harness) { seedLog(h, "web-7d9f-abcde", "web", 100) }, "web-7d9f-abcde", 'l')
	h.eventually("web line-100")
	h.press(tcell.KeyRune, '/')
	h.typeText("LINE-1[0-9]$\n") // capitals: case-sensitive, so nothing matches
	h.eventually(`"LINE-1[0-9]$" not found`)
	h.press(tcell.KeyRune, '/')
	h.press(tcell.KeyCtrlU, 0)
	h.typeText("line-1[0-9]$\n")
	h.eventually("</line-1[0-9]$> 1/10")
	if st, ok := h.style("line-10"); !ok || fg(st) != tcell.ColorBlack {
		t.Fatalf("the match is not highlighted: %v %v", st, ok)
	}
	h.press(tcell.KeyRune, 'n')
	h.eventually("</line-1[0-9]$> 2/10")
	h.press(tcell.KeyRune, 'N')
	h.press(tcell.KeyRune, 'N')
	h.eventually("</line-1[0-9]$> 10/10")
	h.contains("follow off (s)")
	h.press(tcell.KeyRune, '/')
	h.press(tcell.KeyCtrlU, 0)
	h.typeText("line-(\n")
	h.eventually("not a regular expression")
	h.press(tcell.KeyEscape, 0)
	h.lacks("</line-1")
}

func TestLogsRingDropsTheOldestAndSaysSo(t *testing.T) {
	h := openPodLogs(t, func(o *Options) { o.LogLines = 50 }, func(h *harness) { seedLog(h, "web-7d9f-abcde", "web", 120) },
		"web-7d9f-abcde", 'l')
	h.eventually("web line-120")
	h.eventually("50 of 50 lines kept, 70 older dropped")
	h.press(tcell.KeyRune, 'g')
	h.eventually("web line-71")
	h.lacks("web line-70 ")
}

func TestLogsReconnectWithoutDuplicates(t *testing.T) {
	h := openPodLogs(t, nil, func(h *harness) { seedLog(h, "web-7d9f-abcde", "web", 5) }, "web-7d9f-abcde", 'l')
	h.eventually("web line-5")
	h.cluster.endStreams("shop", "web-7d9f-abcde", "web")
	h.eventually("stream ended; reconnecting in 1s")
	h.cluster.addLog("shop", "web-7d9f-abcde", "web", t0, "web line-6 while away")
	h.waitClockWaiter()
	h.advance(time.Second)
	h.eventually("web line-6 while away")
	h.eventually("reconnected at")
	reqs := h.cluster.logRequests()
	if len(reqs) != 2 || reqs[1].TailLines != 0 || !reqs[1].Since.Equal(t0.Add(-time.Second)) {
		t.Fatalf("requests %+v: want a second one since the last line read, without tail", reqs)
	}
	var seen = map[string]int{}
	for _, l := range logLinesShown(h) {
		seen[l]++
	}
	for l, n := range seen {
		if n > 1 {
			t.Fatalf("%q shown %d times after the reconnect:\n%s", l, n, h.text())
		}
	}
	if len(seen) != 6 {
		t.Fatalf("lines shown %v, want 6", seen)
	}
}

// twoContainerPod is shop/web-7d9f-abcde with containers init, web and sidecar, sidecar the default.
func twoContainerPod() *unstructured.Unstructured {
	pod := podObject()
	pod.SetAnnotations(map[string]string{logs.DefaultContainerAnnotation: "sidecar"})
	_ = unstructured.SetNestedSlice(pod.Object, []any{map[string]any{"name": "web"}, map[string]any{"name": "sidecar"}}, "spec", "containers")
	_ = unstructured.SetNestedSlice(pod.Object, []any{map[string]any{"name": "init"}}, "spec", "initContainers")
	return pod
}

func TestLogsContainerPickerPreselectsTheDefault(t *testing.T) {
	h := openPodLogs(t, nil, func(h *harness) {
		h.cluster.put(podsGVR, twoContainerPod())
		seedLog(h, "web-7d9f-abcde", "web", 3)
		seedLog(h, "web-7d9f-abcde", "sidecar", 3)
		seedLog(h, "web-7d9f-abcde", "init", 3)
	}, "web-7d9f-abcde", 'l')
	h.eventually("logs of web-7d9f-abcde: which container?")
	h.contains("(all containers)")
	h.press(tcell.KeyEnter, 0) // the default: sidecar
	h.eventually("sidecar line-3")
	h.lacks("web line-3")

	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyRune, 'l')
	h.eventually("which container?")
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyEnter, 0) // all containers, each line prefixed as kubectl logs --prefix
	h.eventually("[pod/web-7d9f-abcde/init] init line-3")
	h.eventually("[pod/web-7d9f-abcde/web] web line-3")
	h.eventually("[pod/web-7d9f-abcde/sidecar] sidecar line-3")
}

func TestPreviousLogsAskForThePreviousInstance(t *testing.T) {
	h := openPodLogs(t, nil, func(h *harness) { seedLog(h, "web-7d9f-abcde", "web", 3) }, "web-7d9f-abcde", 'p')
	h.eventually("web line-3")
	h.contains("(previous)")
	req := h.cluster.logRequests()[0]
	if !req.Previous || req.Follow {
		t.Fatalf("request %+v, want previous without follow", req)
	}
}

func TestLogsOfADeploymentFollowItsPods(t *testing.T) {
	h := startOnDeployments(t, func(o *Options) {})
	dep := deploymentObject()
	_ = unstructured.SetNestedMap(dep.Object, map[string]any{"matchLabels": map[string]any{"app": "web"}}, "spec", "selector")
	h.cluster.put(deploymentsGVR, dep)
	for _, pod := range []string{"web-7d9f-abcde", "web-7d9f-fghij"} {
		p := podObject()
		p.SetName(pod)
		h.cluster.put(podsGVR, p)
		seedLog(h, pod, "web", 2)
	}
	before := h.app.top()
	h.press(tcell.KeyRune, 'l')
	h.waitOpened(before)
	h.eventually("[pod/web-7d9f-abcde/web] web line-2")
	h.eventually("[pod/web-7d9f-fghij/web] web line-2")
	h.lacks("api-5c4b")
	h.contains("logs deployments shop/web")

	// a pod that goes away is no longer followed
	src := h.cluster.lastSource()
	src.Delete("shop/web-7d9f-fghij")
	h.until("the gone pod's follower stopped", func() bool {
		v, ok := h.app.top().(*LogView)
		_, running := v.run["web-7d9f-fghij/web"]
		return ok && !running && len(v.run) == 1
	})
}

func TestLogsRefusedWhereThereAreNone(t *testing.T) {
	h := start(t, 120, 30, func(o *Options) { o.Resource = "secrets" })
	h.press(tcell.KeyRune, 'l')
	h.eventually("secrets have no logs")
	if n := len(h.cluster.logRequests()); n != 0 {
		t.Fatalf("%d log requests", n)
	}
}
