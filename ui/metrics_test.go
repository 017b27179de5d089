package ui

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/api/resource"

	"kscope/cluster"
	"kscope/ui/livetable"
	"kscope/watch"
)

// podsWithMetrics starts the UI on the pods of shop with metrics.k8s.io served.
func podsWithMetrics(t *testing.T) *harness {
	q := resource.MustParse
	return start(t, 160, 30, func(o *Options) {
		c := o.Cluster.(*fakeCluster)
		withMetrics(c)
		c.metrics.pods = []cluster.PodUsage{
			{Namespace: "shop", Name: "web-7d9f-abcde", CPU: q("42m"), Memory: q("42Mi")},
			{Namespace: "shop", Name: "web-7d9f-fghij", CPU: q("7m"), Memory: q("300Mi")},
			{Namespace: "data", Name: "db-0", CPU: q("1"), Memory: q("1Gi")},
		}
		c.metrics.resources = map[string]cluster.PodResources{
			"shop/web-7d9f-abcde": {RequestCPU: 100, LimitCPU: 200, RequestMemory: 64 << 20},
			"shop/web-7d9f-fghij": {RequestCPU: 10, RequestMemory: 256 << 20, LimitMemory: 512 << 20},
		}
		o.Resource = "pods"
	})
}

// fields returns the words of the screen line that shows name ("" words: none).
func (h *harness) fields(name string) []string {
	for _, l := range strings.Split(h.text(), "\n") {
		if strings.Contains(l, name) {
			return strings.Fields(strings.Trim(l, "║ "))
		}
	}
	return nil
}

func TestPodsTableMetricsColumns(t *testing.T) {
	h := podsWithMetrics(t)
	if !h.eventually("%MEM/L") {
		return
	}
	h.contains("NAME             READY   STATUS    RESTARTS   AGE    CPU   MEM     %CPU/R   %CPU/L   %MEM/R   %MEM/L")
	for name, want := range map[string]string{
		"web-7d9f-abcde": "web-7d9f-abcde 1/1 Running 0 5m 42m 42Mi 42 21 65 n/a",
		"web-7d9f-fghij": "web-7d9f-fghij 1/1 Running 2 120m 7m 300Mi 70 n/a 117 58",
		"api-5c4b-zzzzz": "api-5c4b-zzzzz 0/1 Pending 0 3d", // no metrics for a pending pod
	} {
		if got := strings.Join(h.fields(name), " "); got != want {
			t.Errorf("row %s: %q, want %q", name, got, want)
		}
	}

	// The next poll, 15 s later on the app's clock, shows new figures.
	h.cluster.setMetrics(func(m *fakeMetrics) { m.pods[0].CPU = resource.MustParse("99m") })
	h.waitClockWaiter()
	h.advance(livetable.MetricsPeriod)
	h.eventually(" 99m ")

	// `>` walks past the server's shown columns onto CPU; the snapshot sorts by value, rows without
	// metrics last; `!` reverses.
	for range 6 {
		h.press(tcell.KeyRune, '>')
	}
	h.contains("CPU↑")
	h.contains("sort:CPU↑")
	order := func() []string {
		lines := strings.Split(h.text(), "\n")
		return []string{lines[indexOf(lines, "web-7d9f-fghij")], lines[indexOf(lines, "web-7d9f-abcde")],
			lines[indexOf(lines, "api-5c4b-zzzzz")]}
	}
	lines := strings.Split(h.text(), "\n")
	if i, j, k := indexOf(lines, "web-7d9f-fghij"), indexOf(lines, "web-7d9f-abcde"), indexOf(lines, "api-5c4b-zzzzz"); !(i < j && j < k) {
		t.Errorf("sorted by CPU ascending, want 7m, 99m, none:\n%s", strings.Join(order(), "\n"))
	}
	h.press(tcell.KeyRune, '!')
	lines = strings.Split(h.text(), "\n")
	if i, j, k := indexOf(lines, "web-7d9f-fghij"), indexOf(lines, "web-7d9f-abcde"), indexOf(lines, "api-5c4b-zzzzz"); !(k < j && j < i) {
		t.Errorf("sorted by CPU descending, want none, 99m, 7m:\n%s", h.text())
	}
	// MEM: the next column, ascending (300Mi > 42Mi).
	h.press(tcell.KeyRune, '>')
	h.contains("sort:MEM↑")
	lines = strings.Split(h.text(), "\n")
	if i, j := indexOf(lines, "web-7d9f-abcde"), indexOf(lines, "web-7d9f-fghij"); i > j {
		t.Errorf("sorted by MEM, 42Mi is below 300Mi:\n%s", h.text())
	}
	// A new poll re-sorts: the 42Mi pod now uses the most memory.
	h.cluster.setMetrics(func(m *fakeMetrics) { m.pods[0].Memory = resource.MustParse("2Gi") })
	h.advance(livetable.MetricsPeriod)
	h.eventually(" 2048Mi ")
	lines = strings.Split(h.text(), "\n")
	if i, j := indexOf(lines, "web-7d9f-abcde"), indexOf(lines, "web-7d9f-fghij"); i < j {
		t.Errorf("after the poll, sorted by MEM, 2048Mi is above 300Mi:\n%s", h.text())
	}
}

func TestNodesTableMetricsColumns(t *testing.T) {
	q := resource.MustParse
	h := start(t, 120, 20, func(o *Options) {
		c := o.Cluster.(*fakeCluster)
		withMetrics(c)
		c.metrics.nodes = []cluster.NodeUsage{{Name: "kwok-node-0", CPU: q("255m"), Memory: q("1Gi"), HasAllocatable: true,
			AllocatableCPU: q("2"), AllocatableMemory: q("4Gi")}}
		o.Resource = "nodes"
	})
	if !h.eventually("%MEM") {
		return
	}
	h.contains("NAME          STATUS   AGE   CPU    %CPU   MEM      %MEM")
	if got, want := strings.Join(h.fields("kwok-node-0"), " "), "kwok-node-0 Ready 2d 255m 12 1024Mi 25"; got != want {
		t.Errorf("kwok-node-0: %q, want %q", got, want)
	}
	if got, want := strings.Join(h.fields("kwok-node-1"), " "), "kwok-node-1 Ready 2d"; got != want {
		t.Errorf("kwok-node-1 (no metrics): %q, want %q", got, want)
	}
	if n := h.cluster.metrics.watches; n != 0 {
		t.Errorf("a nodes table watched pod resources %d times", n)
	}
}

// TestMetricsAbsent: without metrics.k8s.io in the catalog a pods table has no metrics columns, sends no
// metrics request and says so once on the status line; the rest of the screen is the usual one.
func TestMetricsAbsent(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.eventually("no metrics: metrics.k8s.io is not served")
	h.lacks("CPU")
	want, err := os.ReadFile("testdata/pods_100x30.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(h.text(), "\n")
	wantLines := strings.Split(string(want), "\n")
	for i := range wantLines {
		if i < len(got) && got[i] != wantLines[i] && !strings.Contains(got[i], "no metrics") {
			t.Errorf("line %d: %q, want %q", i, got[i], wantLines[i])
		}
	}
	if strings.Count(h.text(), "no metrics") != 1 {
		t.Errorf("the note is not shown once:\n%s", h.text())
	}
	if n := h.cluster.metricsCalls(); n != 0 {
		t.Errorf("%d metrics requests without metrics.k8s.io", n)
	}

	// Once the catalog serves metrics.k8s.io (metrics-server installed), the columns come without waiting for
	// the next period.
	h.cluster.setMetrics(func(m *fakeMetrics) {
		m.pods = []cluster.PodUsage{{Namespace: "shop", Name: "web-7d9f-abcde", CPU: resource.MustParse("5m")}}
	})
	withMetrics(h.cluster)
	h.eventually("%CPU/R")
	h.lacks("no metrics")
}

// TestMetricsBroken: a failing metrics API leaves no columns and a note, and the columns come back with it.
func TestMetricsBroken(t *testing.T) {
	h := start(t, 160, 30, func(o *Options) {
		c := o.Cluster.(*fakeCluster)
		withMetrics(c)
		c.metrics.err = errors.New("the server is currently unable to handle the request (get pods.metrics.k8s.io)")
		o.Resource = "pods"
	})
	h.eventually("metrics: the server is currently unable")
	h.lacks("CPU")
	h.contains("web-7d9f-abcde")
	h.cluster.setMetrics(func(m *fakeMetrics) {
		m.err = nil
		m.pods = []cluster.PodUsage{{Namespace: "shop", Name: "web-7d9f-abcde", CPU: resource.MustParse("3m")}}
	})
	h.waitClockWaiter()
	h.advance(livetable.MetricsPeriod)
	h.eventually("%CPU/R")
	h.lacks("unable")
	h.cluster.setMetrics(func(m *fakeMetrics) { m.err = errors.New("metrics down") })
	h.advance(livetable.MetricsPeriod)
	h.eventually("metrics: metrics down")
	h.lacks("%CPU/R")
}

// TestMetricsPollStopsWithView: closing the table stops its poll (and its pod resources watch).
func TestMetricsPollStopsWithView(t *testing.T) {
	h := podsWithMetrics(t)
	h.eventually("%MEM/L")
	var done <-chan struct{}
	h.quietly(func() { done = h.app.top().(*livetable.Table).MetricsPolled() })
	h.press(tcell.KeyEscape, 0)
	h.until("the picker on top", func() bool { return len(h.app.stack) == 1 })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the metrics poll did not return within 5 s of its table closing")
	}
	polls := h.cluster.metricsCalls()
	h.advance(3 * livetable.MetricsPeriod)
	h.sync()
	if n := h.cluster.metricsCalls(); n != polls {
		t.Errorf("%d metrics requests after the table closed", n-polls)
	}
	if n := h.cluster.metrics.watches; n != 1 {
		t.Errorf("pod resources watched %d times, want 1", n)
	}
}

// TestMetricsPollWaitsForTheList: a pods table starts its metrics poll, and the watch of its pods' requests
// and limits, only once its own first list is complete, so that neither competes with it.
func TestMetricsPollWaitsForTheList(t *testing.T) {
	h := start(t, 160, 30, func(o *Options) {
		c := o.Cluster.(*fakeCluster)
		withMetrics(c)
		c.firstState = &watch.State{Phase: watch.Listing, Expected: 4}
		o.Resource = "pods"
	})
	src := h.cluster.lastSource()
	h.refresh()
	h.advance(time.Minute) // a poll started would have polled again
	h.refresh()
	if n, w := h.cluster.metricsCalls(), h.cluster.metrics.watches; n != 0 || w != 0 {
		t.Fatalf("%d metrics polls and %d watches of pod resources while the table was listing", n, w)
	}
	src.SetState(watch.State{Phase: watch.Synced})
	h.until("a metrics poll once the table is listed", func() bool { return h.cluster.metricsCalls() == 1 })
	h.eventually("%CPU/R")
}
