package livetable

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// TestPodFaulty is the pod rule, from the server's cells as kubectl prints them.
func TestPodFaulty(t *testing.T) {
	tests := []struct {
		status, restarts, ready string
		want                    bool
	}{
		{"Running", "0", "1/1", false},
		{"Running", "", "2/2", false},
		{"Completed", "0", "0/1", false},
		{"Succeeded", "0", "0/1", false},
		{"Running", "3 (5m ago)", "1/1", true},
		{"Running", "1", "1/1", true},
		{"Running", "0", "1/2", true},
		{"Running", "0", "0/1", true},
		{"Pending", "0", "0/1", true},
		{"CrashLoopBackOff", "4 (10s ago)", "0/1", true},
		{"ImagePullBackOff", "0", "0/1", true},
		{"ErrImagePull", "0", "0/1", true},
		{"Error", "0", "0/1", true},
		{"Terminating", "0", "1/1", true},
		{"Unknown", "0", "1/1", true},
		{"", "", "", true},
	}
	for _, tt := range tests {
		if got := podFaulty(tt.status, tt.restarts, tt.ready); got != tt.want {
			t.Errorf("podFaulty(%q, %q, %q) = %v, want %v", tt.status, tt.restarts, tt.ready, got, tt.want)
		}
	}
}

var pods = discovery.Resource{Version: "v1", Name: "pods", Kind: "Pod", Namespaced: true}

// pod is a row of the server's pods table (podColumns).
func pod(name, ready, status, restarts string) *watch.Row {
	return &watch.Row{Namespace: "shop", Name: name, Created: t0.Add(-time.Hour), Cells: []string{name, ready, status, restarts, ""}}
}

var podColumns = []watch.Column{
	{Name: "Name", Type: "string", Format: "name"},
	{Name: "Ready", Type: "string"},
	{Name: "Status", Type: "string"},
	{Name: "Restarts", Type: "string"},
	{Name: "Age", Type: "string", Age: true},
}

// fakeCluster serves the table's HEALTH column (NewSource of a Spec of HealthColumn: health) and an empty
// catalog (no metrics); anything else panics.
type fakeCluster struct {
	cluster.Interface
	mu     sync.Mutex
	health *watch.StaticSource
	asked  int // the health sources made
}

func (c *fakeCluster) Catalog() cluster.Catalog { return fakeCatalog{} }
func (c *fakeCluster) NewSource(spec watch.Spec) (cluster.RowSource, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked++
	return c.health, nil // (a source stopped cannot start again: a test sets the next one)
}

type fakeCatalog struct{ cluster.Catalog }

func (fakeCatalog) Resources() []discovery.Resource      { return nil }
func (fakeCatalog) Unavailable() []discovery.Unavailable { return nil }
func (fakeCatalog) Subscribe(func()) (cancel func())     { return func() {} }
func (fakeCatalog) Resolve(context.Context, string) (discovery.Resource, error) {
	panic("not used")
}

// waitNames waits until the table shows the rows want, in order.
func waitNames(t *testing.T, h *fakeHost, want ...string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := h.names()
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("rows %q, want %q", got, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestFaultFilterPods: ctrl-z keeps the pods that are not healthy by their cells, live (a pod turning healthy
// leaves, one turning faulty comes), with the text filter; the title and status say it; again shows all.
func TestFaultFilterPods(t *testing.T) {
	src := watch.NewStaticSource(watch.Spec{Namespaced: true, Namespace: "shop"}, podColumns,
		pod("api", "1/1", "Running", "0"), pod("batch", "0/1", "Completed", "0"),
		pod("crash", "0/1", "CrashLoopBackOff", "5 (1m ago)"), pod("pull", "0/1", "ImagePullBackOff", "0"),
		pod("web", "1/1", "Running", "2 (3m ago)"))
	table, h := newTableOn(t, pods, src, &fakeCluster{})
	h.press(tcell.KeyCtrlZ, 0)
	waitNames(t, h, "crash", "pull", "web")
	var title, status string
	h.run(func() { title, status = table.table.GetTitle(), table.Status() })
	if !strings.Contains(title, "<faults>") || !strings.Contains(title, "[3]") || !strings.Contains(status, "faults: 3 of 5") {
		t.Errorf("title %q, status %q: want the filter and its count", title, status)
	}
	if strings.Contains(status, "HEALTH") {
		t.Errorf("status %q: a pods table needs no HEALTH column", status)
	}

	src.Put(pod("pull", "1/1", "Running", "0"), pod("api", "0/1", "Running", "0"))
	waitNames(t, h, "api", "crash", "web")

	h.press(tcell.KeyRune, '/')
	h.reply("^(api|batch)$")
	waitNames(t, h, "api")

	h.press(tcell.KeyCtrlZ, 0)
	waitNames(t, h, "api", "batch")
	h.run(func() { title, status = table.table.GetTitle(), table.Status() })
	if strings.Contains(title, "<faults>") || strings.Contains(status, "faults:") {
		t.Errorf("off: title %q, status %q still say faults", title, status)
	}
}

// TestFaultFilterKstatus: in a table of another kind, ctrl-z turns the HEALTH column on and keeps the rows
// whose kstatus is not Current, live; off again, the column goes with it.
func TestFaultFilterKstatus(t *testing.T) {
	healthCols := []watch.Column{watch.HealthColumn().Column}
	hrow := func(name, status string) *watch.Row {
		return &watch.Row{Namespace: "shop", Name: name, Cells: []string{status}}
	}
	fc := &fakeCluster{health: watch.NewStaticSource(watch.Spec{Namespaced: true, Namespace: "shop"}, healthCols,
		hrow("api", "Current"), hrow("cache", "InProgress"), hrow("web", "Current"))}
	table, h := newTableOn(t, deployments, deploymentSource(), fc)
	h.press(tcell.KeyCtrlZ, 0)
	fc.health.Signal() // listed, as a real source says once its first list is in
	waitNames(t, h, "cache")
	var status string
	h.run(func() { status = table.Status() })
	if !strings.Contains(status, "faults: 1 of 3") || !strings.Contains(status, "HEALTH on for the filter") {
		t.Errorf("status %q: want the count and the HEALTH column it turned on", status)
	}
	h.contains("HEALTH")

	fc.health.Put(hrow("web", "Failed"), hrow("cache", "Current"))
	waitNames(t, h, "web")

	h.press(tcell.KeyRune, 'H') // the column off under the filter: no row is known faulty, and the status says why
	waitNames(t, h)
	h.run(func() { status = table.Status() })
	if !strings.Contains(status, "needs the HEALTH column") {
		t.Errorf("status %q: want the HEALTH column asked for", status)
	}
	fc.mu.Lock() // the column's next source, as the server would list it now
	fc.health = watch.NewStaticSource(watch.Spec{Namespaced: true, Namespace: "shop"}, healthCols,
		hrow("api", "Current"), hrow("cache", "Current"), hrow("web", "Failed"))
	fc.mu.Unlock()
	h.press(tcell.KeyRune, 'H')
	fc.health.Signal()
	waitNames(t, h, "web")

	h.press(tcell.KeyCtrlZ, 0)
	waitNames(t, h, "api", "cache", "web")
	if fc.asked != 2 {
		t.Errorf("%d health sources made, want 2", fc.asked)
	}
}
