//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// metricsTimeout bounds the waits for metrics-server: a new pod needs two scrapes (its CPU is a rate)
// before `kubectl top` lists it.
const metricsTimeout = 150 * time.Second

// TestUIMetricsColumns: on the devcluster (metrics-server scraping kwok), kscope's pods table shows CPU and
// MEM equal to `kubectl top pods` for the same scrape window (a screen that stays the same across the
// kubectl run), percentages of the pods' requests and limits (n/a where none is set), sorts by CPU as a
// number both ways, and the nodes table shows CPU, %CPU, MEM and %MEM equal to `kubectl top nodes`.
func TestUIMetricsColumns(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	metricsPod(t, ns, "busy", "200m", "100Mi", &corev1.ResourceRequirements{
		Requests: corev1.ResourceList{"cpu": resource.MustParse("100m"), "memory": resource.MustParse("64Mi")},
		Limits:   corev1.ResourceList{"cpu": resource.MustParse("400m")},
	})
	metricsPod(t, ns, "idle", "5m", "10Mi", nil)
	waitForSeen(t, metricsTimeout, "kubectl top pods lists both pods", func() (bool, string) {
		r := runKubectl(t, "-n", ns, "top", "pods", "--no-headers")
		return r.code == 0 && len(topLines(r.stdout)) == 2, r.stdout + r.stderr
	})

	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[2]", "%CPU/R", "%MEM/L")
	header := lineWith(s.screen(), "%CPU/R")
	for _, col := range []string{"CPU", "MEM", "%CPU/R", "%CPU/L", "%MEM/R", "%MEM/L"} {
		if !strings.Contains(header, " "+col+" ") {
			t.Errorf("pods header lacks %s: %q", col, header)
		}
	}
	scr := sameWindow(t, s, []string{"-n", ns, "top", "pods", "--no-headers"}, func(scr string, top map[string][]string) error {
		for _, pod := range []string{"busy", "idle"} {
			row, want := rowFields(scr, pod), top[pod]
			if len(row) < 11 || len(want) < 3 || row[5] != want[1] || row[6] != want[2] {
				return fmt.Errorf("%s: kscope %q, kubectl top pods %q", pod, row, want)
			}
		}
		return nil
	})
	t.Logf("kscope rows:\n%s\n%s", lineWith(scr, "║busy"), lineWith(scr, "║idle"))
	checkPodPercents(t, rowFields(scr, "busy"), 100, 400, 64, 0)
	checkPodPercents(t, rowFields(scr, "idle"), 0, 0, 0, 0)

	// `>` past NAME READY STATUS RESTARTS AGE (IP and NODE are wide) sorts by CPU: 5m before 200m.
	for range 6 {
		s.typeText(">")
	}
	scr = s.waitFor("sort:CPU↑")
	if strings.Index(scr, "║idle") > strings.Index(scr, "║busy") {
		t.Errorf("sorted by CPU ascending, idle (5m) is below busy (200m):\n%s", scr)
	}
	s.typeText("!")
	scr = s.waitFor("sort:CPU↓")
	if strings.Index(scr, "║idle") < strings.Index(scr, "║busy") {
		t.Errorf("sorted by CPU descending, idle (5m) is above busy (200m):\n%s", scr)
	}

	s.typeText(":nodes")
	s.keys("Enter")
	s.waitFor("nodes[", "%CPU", "%MEM", "║kwok-node-0")
	sameWindow(t, s, []string{"top", "nodes", "--no-headers"}, func(scr string, top map[string][]string) error {
		want := top["kwok-node-0"]
		row := rowFields(scr, "kwok-node-0")
		// NAME STATUS ROLES AGE VERSION CPU %CPU MEM %MEM; kubectl: NAME CPU(cores) CPU(%) MEMORY(bytes) MEMORY(%)
		if len(want) != 5 || len(row) != 9 || row[5] != want[1] || row[6]+"%" != want[2] || row[7] != want[3] ||
			row[8]+"%" != want[4] {
			return fmt.Errorf("kwok-node-0: kscope %q, kubectl top nodes %q", row, want)
		}
		t.Logf("kscope row: %s", lineWith(scr, "║kwok-node-0"))
		return nil
	})
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
}

// metricsPod creates a Running pod on kwok-node-0 whose usage kwok reports as cpu and memory, with
// resources (nil for none).
func metricsPod(t *testing.T, ns, name, cpu, memory string, resources *corev1.ResourceRequirements) {
	t.Helper()
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := corev1.Container{Name: name, Image: "registry.example.com/metrics:1.0"}
	if resources != nil {
		c.Resources = *resources
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns,
			Annotations: map[string]string{"kwok.x-k8s.io/usage-cpu": cpu, "kwok.x-k8s.io/usage-memory": memory}},
		Spec: corev1.PodSpec{NodeName: "kwok-node-0", Containers: []corev1.Container{c}},
	}
	if _, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create pod %s: %v", name, err)
	}
}

// topLines returns the lines of `kubectl top … --no-headers` by their first word.
func topLines(out string) map[string][]string {
	lines := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines[f[0]] = f
		}
	}
	return lines
}

// rowFields returns the words of the table row (inside the frame) whose first word is name.
func rowFields(scr, name string) []string {
	for _, l := range strings.Split(scr, "\n") {
		f := strings.Fields(strings.NewReplacer("║", " ", "│", " ").Replace(l))
		if len(f) > 0 && f[0] == name {
			return f
		}
	}
	return nil
}

// sameWindow waits until a `kubectl top` (args) run between two identical captures of kscope's screen
// satisfies check: both then show the same scrape window of metrics-server. It returns that screen.
func sameWindow(t *testing.T, s *tmuxUI, args []string, check func(scr string, top map[string][]string) error) string {
	t.Helper()
	var scr string
	waitForSeen(t, metricsTimeout, "kscope and kubectl "+strings.Join(args, " ")+" agree", func() (bool, string) {
		before := s.screen()
		r := runKubectl(t, args...)
		after := s.screen()
		if r.code != 0 {
			return false, r.stderr
		}
		if before != after {
			return false, "the screen changed while kubectl ran"
		}
		if err := check(after, topLines(r.stdout)); err != nil {
			return false, err.Error()
		}
		t.Logf("kscope and kubectl %s agree; kubectl printed:\n%s", strings.Join(args, " "), r.stdout)
		scr = after
		return true, ""
	})
	return scr
}

var quantityCell = regexp.MustCompile(`^(\d+)(m|Mi)$`)

// checkPodPercents checks a pods row's %CPU/R %CPU/L %MEM/R %MEM/L against its CPU and MEM cells and the
// pod's requests and limits (millicores, MiB; 0 for none, shown n/a). MEM is rounded down to MiB, so %MEM
// may lie anywhere between what MEM and MEM+1 give.
func checkPodPercents(t *testing.T, row []string, reqCPU, limCPU, reqMiB, limMiB int64) {
	t.Helper()
	if len(row) != 11 {
		t.Errorf("row %q: want 11 cells", row)
		return
	}
	cpu, mem := number(row[5]), number(row[6])
	percent := func(used, total float64) string {
		if total == 0 {
			return "n/a"
		}
		return strconv.Itoa(int(math.Floor(used / total * 100)))
	}
	memOK := func(cell string, total int64) bool {
		if total == 0 {
			return cell == "n/a"
		}
		n, err := strconv.Atoi(cell)
		lo, hi := math.Floor(mem/float64(total)*100), math.Floor((mem+1)/float64(total)*100)
		return err == nil && float64(n) >= lo && float64(n) <= hi
	}
	if row[7] != percent(cpu, float64(reqCPU)) || row[8] != percent(cpu, float64(limCPU)) ||
		!memOK(row[9], reqMiB) || !memOK(row[10], limMiB) {
		t.Errorf("%s: percentages %q for CPU %s MEM %s, requests %dm %dMi, limits %dm %dMi", row[0], row[7:],
			row[5], row[6], reqCPU, reqMiB, limCPU, limMiB)
	}
}

// number returns the figure of a "250m" or "64Mi" cell (NaN for anything else).
func number(cell string) float64 {
	m := quantityCell.FindStringSubmatch(cell)
	if m == nil {
		return math.NaN()
	}
	n, _ := strconv.ParseFloat(m[1], 64)
	return n
}
