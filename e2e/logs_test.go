//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestUILogs reads logs in kscope as a user does, in read-only mode (logs are reads): a pod's default
// container (picked by its annotation) and its follow, the previous instance of another container, a
// deployment's pods with kubectl's prefixes, and a pod with one container. Each time the text saved with ctrl-s must be exactly the end of
// what kubectl logs prints for the same container.
func TestUILogs(t *testing.T) {
	serial(t, "appends to the log of every pod's metrics container (devcluster log) and reads the tmux clipboard buffer")
	ns := testNamespace(t)
	logsPod(t, ns)
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1.27", "--replicas=2")
	waitForSeen(t, 60*time.Second, "3 running pods", func() (bool, string) {
		out := kubectl(t, "-n", ns, "get", "pods", "--no-headers", "--field-selector=status.phase=Running")
		return strings.Count(out, "\n") == 3, out
	})
	saveDir := t.TempDir()
	s := startUI(t, "--readonly", "-n", ns, "--save-dir", saveDir, "pods")
	s.waitFor("pods("+ns+")[3]", "synced")
	s.keys("/")
	s.typeText("two")
	s.keys("Enter")
	s.waitFor("pods(" + ns + ")[1]")

	s.keys("l")
	s.waitFor("logs of two: which container?", "(all containers)")
	s.keys("Enter") // the annotation's container, metrics
	s.waitFor("logs pods "+ns+"/two metrics", "lines kept")
	savedMatchesKubectl(t, s, saveDir, "", func() string { return kubectl(t, "-n", ns, "logs", "two", "-c", "metrics") })

	marker := "kscope-logs-follow-" + randomSuffix()
	appended := time.Now()
	devcluster(t, "log", "metrics", marker)
	s.waitFor(marker)
	t.Logf("a line appended to the log was on screen %v later", time.Since(appended).Round(10*time.Millisecond))

	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[1]")
	s.keys("p")
	s.waitFor("which container?")
	s.keys("Up", "Enter") // api
	s.waitFor("logs pods "+ns+"/two api (previous)", "lines kept")
	savedMatchesKubectl(t, s, saveDir, "", func() string { return kubectl(t, "-n", ns, "logs", "two", "-c", "api", "-p") })

	s.keys("Escape") // (a key right after esc would make it alt-key)
	s.waitFor("pods(" + ns + ")[1]")
	s.keys(":")
	s.typeText("deploy")
	s.keys("Enter")
	s.waitFor("deployments("+ns+")[1]", "web")
	s.keys("l")
	s.waitFor("logs deployments "+ns+"/web", "[pod/web-")
	pods := strings.Fields(kubectl(t, "-n", ns, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].metadata.name}"))
	if len(pods) != 2 {
		t.Fatalf("pods of the deployment: %q", pods)
	}
	sort.Strings(pods)
	for _, pod := range pods {
		prefix := "[pod/" + pod + "/nginx] "
		savedMatchesKubectl(t, s, saveDir, prefix, func() string {
			return kubectl(t, "-n", ns, "logs", pod, "--all-containers", "--prefix")
		})
	}

	// a pod with a single container: no picker, the text of kubectl logs POD
	s.keys("Escape")
	s.waitFor("deployments(" + ns + ")[1]")
	s.keys(":")
	s.typeText("pods")
	s.keys("Enter")
	s.waitFor("pods(" + ns + ")[3]")
	s.keys("/")
	s.typeText(pods[0])
	s.keys("Enter")
	s.waitFor("pods(" + ns + ")[1]")
	s.keys("l")
	s.waitFor("logs pods "+ns+"/"+pods[0]+" nginx", "lines kept")
	savedMatchesKubectl(t, s, saveDir, "", func() string { return kubectl(t, "-n", ns, "logs", pods[0]) })

	// c copies the lines on screen to the clipboard (OSC 52, which tmux keeps as a buffer)
	s.keys("c")
	s.waitFor("copied the lines on screen (")
	out, err := exec.Command("tmux", "show-buffer").Output()
	copied := linesWith(string(out), "")
	if err != nil || len(copied) < 10 {
		t.Fatalf("tmux buffer after c: %v\n%s", err, out)
	}
	for _, l := range copied {
		if !strings.Contains(s.screen(), l[:min(len(l), 100)]) {
			t.Fatalf("copied line %q is not a line on screen", l)
		}
	}
}

// logsPod creates the Running pod "two" with containers api and metrics (metrics the default container).
func logsPod(t *testing.T, ns string) {
	t.Helper()
	createRunningPod(t, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "two", Namespace: ns,
			Annotations: map[string]string{"kubectl.kubernetes.io/default-container": "metrics"}},
		Spec: corev1.PodSpec{NodeName: "kwok-node-0", Containers: []corev1.Container{
			{Name: "api", Image: "registry.example.com/api:1.0"},
			{Name: "metrics", Image: "registry.example.com/metrics:1.0"},
		}},
	})
}

// savedMatchesKubectl saves the logs view (ctrl-s) and checks that its lines starting with prefix are
// exactly the last lines of what kubectl prints (also prefix-filtered), at least 200 of them or all. The
// log may grow between the two reads: it saves and reads again until they agree.
func savedMatchesKubectl(t *testing.T, s *tmuxUI, dir, prefix string, kubectlLogs func() string) {
	t.Helper()
	waitForSeen(t, 30*time.Second, "the saved logs are the end of kubectl logs", func() (bool, string) {
		before, _ := filepath.Glob(filepath.Join(dir, "logs", "*"))
		s.keys("C-s")
		s.waitUntil("a new saved file", func(string) bool {
			after, _ := filepath.Glob(filepath.Join(dir, "logs", "*"))
			return len(after) > len(before)
		})
		after, _ := filepath.Glob(filepath.Join(dir, "logs", "*"))
		data, err := os.ReadFile(newFile(before, after))
		if err != nil {
			return false, err.Error()
		}
		saved := linesWith(string(data), prefix)
		full := linesWith(kubectlLogs(), prefix)
		want := min(200, len(full))
		if len(saved) < want || len(saved) > len(full) {
			return false, fmt.Sprintf("saved %d lines, kubectl printed %d", len(saved), len(full))
		}
		tail := full[len(full)-len(saved):]
		for i := range saved {
			if saved[i] != tail[i] {
				return false, fmt.Sprintf("line %d saved %q, kubectl %q", i, saved[i], tail[i])
			}
		}
		return true, ""
	})
}

// newFile returns the path in after that is not in before.
func newFile(before, after []string) string {
	for _, p := range after {
		if !slices.Contains(before, p) {
			return p
		}
	}
	return ""
}

// linesWith returns text's lines that start with prefix (all of them for "").
func linesWith(text, prefix string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if l != "" && strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// TestUILogsFloodStaysBounded follows a container whose log then grows by 200 MB: kscope (without the
// race detector) shows the last line, keeps its 5000-line ring, and its peak RSS stays bounded.
func TestUILogsFloodStaysBounded(t *testing.T) {
	serial(t, "measures kscope's memory and time under a log flood")
	ns := testNamespace(t)
	createRunningPod(t, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "flood", Namespace: ns},
		Spec: corev1.PodSpec{NodeName: "kwok-node-1", Containers: []corev1.Container{{Name: "log-flood", Image: "registry.example.com/flood:1.0"}}}})
	s := startTmuxBinary(t, env.plain, "; sleep 600", "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", "synced")
	s.keys("l")
	s.waitFor("logs pods "+ns+"/flood log-flood", "lines kept")
	pid := panePID(t, s)
	before := rssKB(t, pid)

	const size = 200 << 20
	end := "kscope-flood-end-" + randomSuffix()
	path := filepath.Join(env.cache, "state", "pod-logs", "log-flood.log")
	started := time.Now()
	appendFlood(t, path, size, end)
	s.waitFor(end, "5000 of 5000 lines kept")
	took := time.Since(started)
	peak := peakRSSKB(t, pid)
	t.Logf("200 MB log followed in %v: RSS %d MB before, peak %d MB, now %d MB", took.Round(100*time.Millisecond),
		before>>10, peak>>10, rssKB(t, pid)>>10)
	if peak > 300<<10 {
		t.Errorf("peak RSS %d MB while following a 200 MB log with a 5000-line ring", peak>>10)
	}
}

// appendFlood appends size bytes of CRI log lines (the last one's text is end) to the log file at path.
func appendFlood(t *testing.T, path string, size int, end string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatalf("open the flood log: %v", err)
	}
	defer f.Close()
	var b strings.Builder
	at := time.Now()
	for n, i := 0, 0; n < size; i++ {
		line := fmt.Sprintf("%s stdout F level=info msg=\"flood\" seq=%09d %s\n",
			at.Add(time.Duration(i)*time.Microsecond).UTC().Format(time.RFC3339Nano), i, strings.Repeat("x", 120))
		if n+len(line) >= size {
			line = fmt.Sprintf("%s stdout F %s\n", at.Add(time.Duration(i)*time.Microsecond).UTC().Format(time.RFC3339Nano), end)
		}
		b.WriteString(line)
		n += len(line)
		if b.Len() >= 1<<20 || n >= size {
			if _, err := f.WriteString(b.String()); err != nil {
				t.Fatalf("append to the flood log: %v", err)
			}
			b.Reset()
		}
	}
}
