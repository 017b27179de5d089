//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"kscope/watch"
)

// Lifecycle of watch.Source on the devcluster: churn, selectors, error states, Stop, WatchObject, metadata fill.
// TestWatchChurn makes 1000 creates, updates and deletes while watching a namespace that already holds 100
// objects (listed without metadata, filled in behind); the rows must end equal to the server's state (names
// and resourceVersions).
func TestWatchChurn(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	cfg := restConfig(t, "admin")
	cs := kubernetes.NewForConfigOrDie(withQPS(cfg))
	ctx := context.Background()
	// Objects that exist before the view opens come from its metadata-less first list and the metadata
	// fill behind it; the final comparison of resourceVersions holds only if the fill completed them.
	pre := make(chan func() error, 100)
	for i := 0; i < 100; i++ {
		pre <- func() error {
			_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pre-%d", i)}}, metav1.CreateOptions{})
			return err
		}
	}
	runParallel(t, pre, 16)
	src := startSource(t, cfg, watch.Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"},
		Namespaced: true, Namespace: ns})
	const n = 400 // 400 creates + 400 updates + 200 deletes
	ops := make(chan func() error, 3*n)
	for i := 0; i < n; i++ {
		ops <- func() error {
			_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("churn-%d", i), Labels: map[string]string{"round": "0"}},
				Data:       map[string]string{"v": "0"}}, metav1.CreateOptions{})
			return err
		}
	}
	runParallel(t, ops, 16)
	ops = make(chan func() error, 3*n)
	for i := 0; i < n; i++ {
		ops <- func() error { // an update, then (every other object) a delete
			cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, fmt.Sprintf("churn-%d", i), metav1.GetOptions{})
			if err != nil {
				return err
			}
			cm.Data["v"] = "1"
			if _, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil || i%2 != 0 {
				return err
			}
			return cs.CoreV1().ConfigMaps(ns).Delete(ctx, cm.Name, metav1.DeleteOptions{})
		}
	}
	runParallel(t, ops, 16)

	list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, cm := range list.Items {
		want[ns+"/"+cm.Name] = cm.ResourceVersion
	}
	deadline := time.Now().Add(120 * time.Second)
	for {
		got := map[string]string{}
		for _, r := range src.Snapshot(watch.Query{SortColumn: -1}).Rows {
			got[r.Key] = r.ResourceVersion
		}
		diff := mapDiff(got, want)
		if diff == "" {
			t.Logf("%d rows equal the server's state after 1000 changes", len(got))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("rows differ from the server after 120s: %s", diff)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st := src.State(); st.Phase != watch.Synced {
		t.Errorf("state %s after churn", st.Phase)
	}
}

func withQPS(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.QPS, c.Burst = 500, 1000
	return c
}

func runParallel(t *testing.T, ops chan func() error, workers int) {
	t.Helper()
	close(ops)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for op := range ops {
				if err := op(); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d operations failed, first: %v", len(errs), errs[0])
	}
}

func mapDiff(got, want map[string]string) string {
	var d []string
	for k, v := range want {
		if g, ok := got[k]; !ok {
			d = append(d, "missing "+k)
		} else if g != v {
			d = append(d, fmt.Sprintf("%s rv %s, server %s", k, g, v))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			d = append(d, "extra "+k)
		}
	}
	if len(d) > 5 {
		d = append(d[:5], fmt.Sprintf("… %d differences", len(d)))
	}
	return strings.Join(d, "; ")
}

// TestWatchSelectors checks that label and field selectors are applied by the server.
func TestWatchSelectors(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	cfg := restConfig(t, "admin")
	cs := kubernetes.NewForConfigOrDie(cfg)
	ctx := context.Background()
	for i, app := range []string{"a", "a", "b", "a", "b"} {
		_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("sel-%d", i), Labels: map[string]string{"app": app}}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
	}
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	tests := []struct {
		label, field string
		want         []string
	}{
		{"app=a", "", []string{"sel-0", "sel-1", "sel-3"}},
		{"app!=a", "", []string{"kube-root-ca.crt", "sel-2", "sel-4"}},
		{"", "metadata.name=sel-4", []string{"sel-4"}},
		{"app=b", "metadata.name!=sel-2", []string{"sel-4"}},
	}
	for _, tt := range tests {
		src := startSource(t, cfg, watch.Spec{GVR: gvr, Namespaced: true, Namespace: ns,
			LabelSelector: tt.label, FieldSelector: tt.field})
		var got []string
		for _, r := range src.Snapshot(watch.Query{SortColumn: -1}).Rows {
			got = append(got, r.Name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("-l %q --field-selector %q: rows %q, want %q", tt.label, tt.field, got, tt.want)
		}
		src.Stop()
	}
	// A change that leaves the selection removes the row live.
	src := startSource(t, cfg, watch.Spec{GVR: gvr, Namespaced: true, Namespace: ns, LabelSelector: "app=a"})
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "sel-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Labels["app"] = "c"
	if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 60*time.Second, "sel-0 leaves the app=a view", func() bool {
		_, ok := src.Row(ns + "/sel-0")
		return !ok
	})
}

// waitForSeen waits until cond holds, polling every 20 ms; after timeout it fails t with what cond last saw.
func waitForSeen(t *testing.T, timeout time.Duration, what string, cond func() (ok bool, seen string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, seen := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting until %s; last seen: %s", timeout, what, seen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitFor waits until cond holds, polling every 20 ms, and fails t after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting until %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWatchForbidden: a user without rights gets the Forbidden state with the server's message, and the
// informer stops (how long that took is logged).
func TestWatchForbidden(t *testing.T) {
	parallel(t)
	src, err := watch.NewSource(restConfig(t, "viewer"), watch.Spec{
		GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}, Namespaced: true, Namespace: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	src.Start(context.Background())
	defer src.Stop()
	select {
	case <-src.Done():
	case <-time.After(60 * time.Second):
		t.Fatalf("informer still running after 60s; state %s %v", src.State().Phase, src.State().Err)
	}
	st := src.State()
	if st.Phase != watch.Forbidden {
		t.Fatalf("state %s (%v), want forbidden", st.Phase, st.Err)
	}
	want := `pods is forbidden: User "viewer" cannot list resource "pods" in API group "" in the namespace "shop"`
	if st.Message != want {
		t.Errorf("message %q, want the server's %q", st.Message, want)
	}
	t.Logf("forbidden after %v: %s", time.Since(start).Round(time.Millisecond), st.Message)
}

// newCRD returns a CustomResourceDefinition of plural.group for kind, scope "Namespaced" or "Cluster", with one
// served version v1 whose objects keep any fields.
func newCRD(group, plural, singular, kind, scope string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + "." + group},
		"spec": map[string]any{
			"group": group, "scope": scope,
			"names": map[string]any{"plural": plural, "singular": singular, "kind": kind, "listKind": kind + "List"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object",
					"x-kubernetes-preserve-unknown-fields": true}}}},
		},
	}}
}

// TestWatchCRDDeleted: deleting the CRD of a watched resource ends in NotFound and stops the informer.
func TestWatchCRDDeleted(t *testing.T) {
	serial(t, "creates and deletes a CRD (cluster-wide discovery)")
	cfg := restConfig(t, "admin")
	dyn := dynamic.NewForConfigOrDie(cfg)
	ctx := context.Background()
	group := "e2e" + randomSuffix() + ".example.com"
	crdGVR := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	crd := newCRD(group, "gizmos", "gizmo", "Gizmo", "Namespaced")
	if _, err := dyn.Resource(crdGVR).Create(ctx, crd, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dyn.Resource(crdGVR).Delete(context.Background(), "gizmos."+group, metav1.DeleteOptions{}) })
	ns := testNamespace(t)
	gvr := schema.GroupVersionResource{Group: group, Version: "v1", Resource: "gizmos"}
	waitFor(t, 30*time.Second, "the CRD is served", func() bool {
		_, err := dyn.Resource(gvr).Namespace(ns).Create(ctx, &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": group + "/v1", "kind": "Gizmo", "metadata": map[string]any{"name": "g1"}}}, metav1.CreateOptions{})
		return err == nil
	})
	src := startSource(t, cfg, watch.Spec{GVR: gvr, Namespaced: true, Namespace: ns})
	if _, ok := src.Row(ns + "/g1"); !ok {
		t.Fatalf("row g1 missing; rows %d", src.Len())
	}
	if err := dyn.Resource(crdGVR).Delete(ctx, "gizmos."+group, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-src.Done():
	case <-time.After(60 * time.Second):
		t.Fatalf("informer still running 60s after the CRD was deleted; state %s %v", src.State().Phase, src.State().Err)
	}
	if st := src.State(); st.Phase != watch.NotFound {
		t.Fatalf("state %s (%v), want not found", st.Phase, st.Err)
	} else {
		t.Logf("after CRD deletion: %s: %s", st.Phase, st.Message)
	}
}

// TestWatchStopReleasesGoroutines: after Stop, the goroutine count returns to its baseline.
func TestWatchStopReleasesGoroutines(t *testing.T) {
	serial(t, "counts the goroutines of the test process")
	cfg := restConfig(t, "admin")
	core := func(r string) schema.GroupVersionResource {
		return schema.GroupVersionResource{Version: "v1", Resource: r}
	}
	// Warm up the shared HTTP transport (its connection goroutines outlive any one Source).
	warm, _ := watch.NewSource(cfg, watch.Spec{GVR: core("configmaps"), Namespaced: true})
	warm.Start(context.Background())
	waitPhase(t, warm, watch.Synced, 60*time.Second)
	warm.Stop()
	baseline := settledGoroutines(0)
	var srcs []*watch.Source
	// All namespaces (metadata list), one namespace (metadata-less list and fill) and cluster-scoped.
	for _, spec := range []watch.Spec{
		{GVR: core("configmaps"), Namespaced: true},
		{GVR: core("pods"), Namespaced: true, Namespace: "shop"},
		{GVR: core("namespaces")},
	} {
		s, err := watch.NewSource(cfg, spec)
		if err != nil {
			t.Fatal(err)
		}
		s.Start(context.Background())
		waitPhase(t, s, watch.Synced, 60*time.Second)
		srcs = append(srcs, s)
	}
	running := runtime.NumGoroutine()
	for _, s := range srcs {
		s.Stop()
		s.Stop() // idempotent
	}
	if after := settledGoroutines(baseline); after > baseline {
		t.Fatalf("goroutines: baseline %d, with 3 sources %d, after Stop %d", baseline, running, after)
	} else {
		t.Logf("goroutines: baseline %d, with 3 sources %d, after Stop %d", baseline, running, after)
	}
	for _, s := range srcs {
		if st := s.State(); st.Phase != watch.Stopped {
			t.Errorf("state after Stop: %s", st.Phase)
		}
	}
}

// settledGoroutines waits up to 30 s for the goroutine count to drop to target (0: until it stops changing).
func settledGoroutines(target int) int {
	n := runtime.NumGoroutine()
	for i := 0; i < 300; i++ {
		time.Sleep(100 * time.Millisecond)
		m := runtime.NumGoroutine()
		if (target > 0 && m <= target) || (target == 0 && m == n && i > 5) {
			return m
		}
		n = m
	}
	return n
}

// TestWatchObject follows one ConfigMap through an update and its deletion.
func TestWatchObject(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	cfg := restConfig(t, "admin")
	cs := kubernetes.NewForConfigOrDie(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cm, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "one"},
		Data: map[string]string{"v": "0"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	events := watch.WatchObject(ctx, dynamic.NewForConfigOrDie(cfg),
		schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, ns, "one", nil)
	next := func(what string, ok func(watch.ObjectEvent) bool) {
		t.Helper()
		timeout := time.After(60 * time.Second)
		var last watch.ObjectEvent
		for {
			select {
			case ev := <-events:
				last = ev
				if ev.Err != nil {
					t.Fatalf("%s: %v", what, ev.Err)
				}
				if ok(ev) {
					return
				}
			case <-timeout:
				seen := "nothing"
				if last.Object != nil {
					seen = fmt.Sprintf("resourceVersion %s, deleted %v", last.Object.GetResourceVersion(), last.Deleted)
				}
				t.Fatalf("timed out after 60s waiting for %s; last event: %s", what, seen)
			}
		}
	}
	next("the object", func(ev watch.ObjectEvent) bool { return ev.Object.GetResourceVersion() == cm.ResourceVersion })
	cm.Data["v"] = "1"
	up, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	next("the update", func(ev watch.ObjectEvent) bool {
		v, _, _ := unstructured.NestedString(ev.Object.Object, "data", "v")
		return ev.Object.GetResourceVersion() == up.ResourceVersion && v == "1" && !ev.Deleted
	})
	if err := cs.CoreV1().ConfigMaps(ns).Delete(ctx, "one", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	next("the deletion", func(ev watch.ObjectEvent) bool { return ev.Deleted && ev.Object.GetName() == "one" })
	cancel()
	for range events { // closed when ctx ends
	}
}

// TestWatchMetadataFill: a one-namespace view lists rows without their objects first; the metadata
// (resourceVersion, UID, labels, exact creation time) is filled in behind without reporting changes. The
// fill's pages after its first are asked for as rows without objects joined to a protobuf metadata list: with
// 600 objects (a first page of 250) at least one page is joined.
func TestWatchMetadataFill(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	cfg := restConfig(t, "admin")
	cfg.QPS, cfg.Burst = 200, 400
	cs := kubernetes.NewForConfigOrDie(cfg)
	ctx := context.Background()
	createConfigMaps(t, cs, 600, func(i int) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("fill-%d", i), Namespace: ns,
			Labels: map[string]string{"n": fmt.Sprint(i)}}}
	})
	list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src := startSource(t, cfg, watch.Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"},
		Namespaced: true, Namespace: ns})
	src.Changes()
	waitForSeen(t, 60*time.Second, "every row has its metadata", func() (bool, string) {
		for _, cm := range list.Items {
			r, ok := src.Row(ns + "/" + cm.Name)
			if !ok {
				return false, "no row " + cm.Name
			}
			if r.ResourceVersion != cm.ResourceVersion || r.UID != cm.UID ||
				!r.Created.Equal(cm.CreationTimestamp.Time) || fmt.Sprint(r.Labels) != fmt.Sprint(cm.Labels) {
				return false, fmt.Sprintf("row %s: resourceVersion %q uid %q created %s labels %v, want %q %q %s %v "+
					"(state %s %s)", cm.Name, r.ResourceVersion, r.UID, r.Created, r.Labels, cm.ResourceVersion, cm.UID,
					cm.CreationTimestamp.Time, cm.Labels, src.State().Phase, src.State().Note)
			}
		}
		return true, ""
	})
	if cs := src.Changes(); !cs.Empty() {
		t.Errorf("the metadata fill was reported as changes: %+v", cs)
	}
	if n := src.Pulse().FillJoinedPages; n < 1 {
		t.Errorf("the fill joined %d pages, want at least 1 (600 rows: 250, then 350)", n)
	}
}
