package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	"kscope/cluster"
	"kscope/ui/livetable"
	"kscope/watch"
)

// healthPods gives the fixture's pods full objects: web-7d9f-abcde running without a Ready condition
// (InProgress), web-7d9f-fghij succeeded (Current), api-5c4b-zzzzz being deleted past a finalizer
// (Terminating), data's db-0 running and ready (Current).
func healthPods(o *Options) {
	c := o.Cluster.(*fakeCluster)
	done := podObject()
	done.SetName("web-7d9f-fghij")
	done.SetUID("uid-web-7d9f-fghij")
	_ = unstructured.SetNestedField(done.Object, "Succeeded", "status", "phase")
	c.objects["pods/shop/web-7d9f-fghij"] = done
	gone := podObject()
	gone.SetName("api-5c4b-zzzzz")
	gone.SetUID("uid-api-5c4b-zzzzz")
	gone.SetFinalizers([]string{"example.com/hold"})
	now := metav1.NewTime(t0)
	gone.SetDeletionTimestamp(&now)
	c.objects["pods/shop/api-5c4b-zzzzz"] = gone
	db := podObject()
	db.SetName("db-0")
	db.SetNamespace("data")
	db.SetUID("uid-db-0")
	_ = unstructured.SetNestedSlice(db.Object, []any{map[string]any{"type": "Ready", "status": "True"}}, "status", "conditions")
	c.objects["pods/data/db-0"] = db
}

// waitRow waits up to 5 s for the screen's line of name to read want (its words joined by one space).
func (h *harness) waitRow(name, want string) {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := strings.Join(h.fields(name), " ")
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("row %s reads %q, want %q:\n%s", name, got, want, h.text())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitGone waits up to 5 s for the screen to stop showing substr.
func (h *harness) waitGone(substr string) {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for strings.Contains(h.text(), substr) {
		if time.Now().After(deadline) {
			h.t.Fatalf("screen still shows %q:\n%s", substr, h.text())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// makeReady gives the fixture's pod name in shop a Ready condition (a new resourceVersion), through the objects
// client the health source reads.
func makeReady(t *testing.T, h *harness, name string) {
	t.Helper()
	pods := h.cluster.objectsClient().Resource(podsGVR).Namespace("shop")
	pod, err := pods.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_ = unstructured.SetNestedSlice(pod.Object, []any{map[string]any{"type": "Ready", "status": "True"}}, "status", "conditions")
	pod.SetResourceVersion("9")
	if _, err := pods.Update(context.Background(), pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// tableHealthOf returns the top table's HEALTH source while the column is on, else nil (read on the UI
// goroutine).
func tableHealthOf(h *harness) cluster.RowSource {
	var src cluster.RowSource
	h.quietly(func() { src = h.app.top().(*livetable.Table).HealthSource() })
	return src
}

// TestHealthColumnToggles: shift-h adds HEALTH to a table, each row's kstatus by its key (InProgress,
// Current, Terminating), from a second source of the objects themselves that keeps no spec or status; it
// follows changes, sorts as any column, and shift-h again drops the column and stops the source.
func TestHealthColumnToggles(t *testing.T) {
	h := start(t, 120, 20, func(o *Options) {
		o.Resource = "pods"
		healthPods(o)
	})
	waitFor(t, h, "web-7d9f-abcde")
	h.lacks("HEALTH")
	h.typeText("H")
	waitFor(t, h, "HEALTH")
	h.waitRow("api-5c4b-zzzzz", "api-5c4b-zzzzz 0/1 Pending 0 3d Terminating")
	for name, want := range map[string]string{
		"web-7d9f-abcde": "web-7d9f-abcde 1/1 Running 0 5m InProgress",
		"web-7d9f-fghij": "web-7d9f-fghij 1/1 Running 2 120m Current",
	} {
		if got := strings.Join(h.fields(name), " "); got != want {
			t.Errorf("row %s: %q, want %q", name, got, want)
		}
	}
	var src cluster.RowSource
	h.quietly(func() { src = h.app.top().(*livetable.Table).HealthSource() })
	osrc, ok := src.(*watch.ObjectSource)
	if !ok {
		t.Fatalf("health source %T, want an ObjectSource", src)
	}
	if r, ok := osrc.Row("shop/web-7d9f-abcde"); !ok || r.Cells[0] != "InProgress" {
		t.Fatalf("health row %+v", r)
	}

	// Sorted by HEALTH (after AGE and the wide IP and NODE): Current, InProgress, Terminating; `!` reverses.
	for range 6 {
		h.press(tcell.KeyRune, '>')
	}
	h.contains("sort:HEALTH↑")
	lines := strings.Split(h.text(), "\n")
	if i, j, k := indexOf(lines, "web-7d9f-fghij"), indexOf(lines, "web-7d9f-abcde"), indexOf(lines, "api-5c4b-zzzzz"); !(i < j && j < k) {
		t.Errorf("sorted by HEALTH ascending, want Current, InProgress, Terminating:\n%s", h.text())
	}
	h.press(tcell.KeyRune, '!')
	lines = strings.Split(h.text(), "\n")
	if i, j, k := indexOf(lines, "web-7d9f-fghij"), indexOf(lines, "web-7d9f-abcde"), indexOf(lines, "api-5c4b-zzzzz"); !(k < j && j < i) {
		t.Errorf("sorted by HEALTH descending:\n%s", h.text())
	}

	// The pod becomes ready: its cell follows, and the order with it.
	makeReady(t, h, "web-7d9f-abcde")
	h.waitRow("web-7d9f-abcde", "web-7d9f-abcde 1/1 Running 0 5m Current")
	lines = strings.Split(h.text(), "\n")
	if i, j := indexOf(lines, "web-7d9f-abcde"), indexOf(lines, "api-5c4b-zzzzz"); i < j {
		t.Errorf("sorted by HEALTH descending, Current is below Terminating:\n%s", h.text())
	}

	h.typeText("H")
	h.waitGone("HEALTH")
	h.until("the health source stopped", func() bool {
		select {
		case <-osrc.Done():
			return osrc.Len() == 0
		default:
			return false
		}
	})
	if tableHealthOf(h) != nil {
		t.Error("the column is still on")
	}
}

// TestHealthColumnDrawnWhenItChanges: a change of health alone (the object's conditions, not the table's row)
// reaches the screen with no key pressed. The screen is read as last drawn, with no draw of the test's own.
func TestHealthColumnDrawnWhenItChanges(t *testing.T) {
	h := start(t, 120, 20, func(o *Options) {
		o.Resource = "pods"
		healthPods(o)
	})
	waitFor(t, h, "web-7d9f-abcde")
	h.typeText("H")
	h.waitRow("web-7d9f-abcde", "web-7d9f-abcde 1/1 Running 0 5m InProgress")
	h.waitGone("health: listing")
	makeReady(t, h, "web-7d9f-abcde")
	h.until("the new health drawn", func() bool { // (on the UI goroutine, with no draw of its own)
		c, w, hgt := h.screen.GetContents()
		return strings.Contains(strings.Join(strings.Fields(cellsText(c, w, hgt)), " "), "web-7d9f-abcde 1/1 Running 0 5m Current")
	})
}

// TestHealthColumnBesideMetrics: on a pods table with metrics, HEALTH comes first among the table's own
// columns and each cell stays under its own header.
func TestHealthColumnBesideMetrics(t *testing.T) {
	h := podsWithMetrics(t)
	waitFor(t, h, "%MEM/L")
	h.quietly(func() { healthPods(&Options{Cluster: h.cluster}) })
	h.typeText("H")
	h.waitRow("web-7d9f-abcde", "web-7d9f-abcde 1/1 Running 0 5m InProgress 42m 42Mi 42 21 65 n/a")
	h.waitRow("NAME", "NAME READY STATUS RESTARTS AGE HEALTH CPU MEM %CPU/R %CPU/L %MEM/R %MEM/L")
	h.waitRow("api-5c4b-zzzzz", "api-5c4b-zzzzz 0/1 Pending 0 3d Terminating") // no metrics
}

// TestHealthColumnInSeveralNamespaces: a table of two namespaces has one health source per namespace, keyed
// as the table's rows.
func TestHealthColumnInSeveralNamespaces(t *testing.T) {
	h := start(t, 140, 20, healthPods)
	h.command("pods shop,data")
	waitFor(t, h, "db-0")
	h.typeText("H")
	waitFor(t, h, "HEALTH")
	h.waitRow("db-0", "data db-0 1/1 Running 0 30d Current")
	h.waitRow("api-5c4b-zzzzz", "shop api-5c4b-zzzzz 0/1 Pending 0 3d Terminating")
}

// TestHealthColumnNotForSeveralKinds: a table of several kinds says in one line that it has no HEALTH.
func TestHealthColumnNotForSeveralKinds(t *testing.T) {
	h := start(t, 160, 20, nil)
	h.command("deploy,pods")
	waitFor(t, h, "deployment.apps")
	h.typeText("H")
	waitFor(t, h, "no health: not available in a table of several kinds")
	h.waitRow("KIND", "KIND NAME AGE")
	if tableHealthOf(h) != nil {
		t.Error("the column is on")
	}
}

// TestHealthColumnForbidden: a list of the objects the server refuses is one line, and the column goes.
func TestHealthColumnForbidden(t *testing.T) {
	h := start(t, 160, 20, func(o *Options) { o.Resource = "deployments" })
	waitFor(t, h, "web")
	h.cluster.objectsClient().PrependReactor("list", "deployments", func(a clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(a.GetResource().GroupResource(), "", nil)
	})
	h.typeText("H")
	waitFor(t, h, "no health: ")
	h.eventually("forbidden")
	h.lacks("HEALTH")
	h.lacks("goroutine")
	if tableHealthOf(h) != nil {
		t.Error("the column is still on")
	}
}

// TestHealthColumnStopsWithTable: the health source stops when its table closes.
func TestHealthColumnStopsWithTable(t *testing.T) {
	h := start(t, 120, 20, func(o *Options) { o.Resource = "deployments" })
	waitFor(t, h, "web")
	h.typeText("H")
	waitFor(t, h, "HEALTH")
	var src *watch.ObjectSource
	h.until("a health source", func() bool {
		src, _ = h.app.top().(*livetable.Table).HealthSource().(*watch.ObjectSource)
		return src != nil && src.State().Phase == watch.Synced
	})
	h.command("secrets")
	waitFor(t, h, "creds")
	h.until("the health source stopped", func() bool {
		select {
		case <-src.Done():
			return true
		default:
			return false
		}
	})
}

// TestHealthColumnFollowsNamespaceSwitch: HEALTH stays on when the table switches namespace (0: all), over a
// health source of the new namespaces, and stays off when it was off.
func TestHealthColumnFollowsNamespaceSwitch(t *testing.T) {
	h := start(t, 140, 20, func(o *Options) {
		o.Resource = "pods"
		healthPods(o)
	})
	waitFor(t, h, "web-7d9f-abcde")
	h.typeText("H")
	h.waitRow("web-7d9f-abcde", "web-7d9f-abcde 1/1 Running 0 5m InProgress")
	oldSrc := tableHealthOf(h)
	h.typeText("0")
	waitFor(t, h, "db-0")
	h.waitRow("db-0", "data db-0 1/1 Running 0 30d Current")
	src := tableHealthOf(h)
	if src == nil || src == oldSrc || src.Spec().Namespace != "" {
		t.Errorf("health source after the switch: %v (before: %v)", src, oldSrc)
	}
	h.typeText("H")
	h.waitGone("HEALTH")
	h.command("ns shop")
	waitFor(t, h, "web-7d9f-abcde")
	h.lacks("HEALTH")
}
