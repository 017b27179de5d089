package watch

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// healthPod returns a pod of namespace shop in phase, with conditions and container statuses.
func healthPod(name string, phase corev1.PodPhase, conds []corev1.PodCondition, cs ...corev1.ContainerStatus) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", UID: types.UID("u-" + name), Generation: 1,
		CreationTimestamp: metav1.NewTime(time.Now().Add(-time.Hour)), Labels: map[string]string{"app": "web"}},
		Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}},
		Status: corev1.PodStatus{ObservedGeneration: 1, Phase: phase, Conditions: conds, ContainerStatuses: cs}}
}

// healthPods are pods of every health: ready, running but not ready, crash-looping, pending, unschedulable,
// succeeded, terminating, of an unknown phase, and of a generation not observed.
func healthPods() []*corev1.Pod {
	ready := []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	unschedulable := []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable"}}
	crash := corev1.ContainerStatus{Name: "app", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}
	now := metav1.Now()
	deleting := healthPod("deleting", corev1.PodRunning, ready)
	deleting.DeletionTimestamp, deleting.Finalizers = &now, []string{"example.com/hold"}
	behind := healthPod("behind", corev1.PodRunning, ready)
	behind.Generation = 2
	return []*corev1.Pod{healthPod("ready", corev1.PodRunning, ready), healthPod("starting", corev1.PodRunning, nil),
		healthPod("crashing", corev1.PodRunning, nil, crash), healthPod("pending", corev1.PodPending, nil),
		healthPod("unschedulable", corev1.PodPending, unschedulable), healthPod("done", corev1.PodSucceeded, nil),
		deleting, healthPod("lost", "Lost", nil), behind}
}

// healthSpec is the spec of a HEALTH column over the pods of namespace shop.
func healthSpec() Spec {
	return Spec{GVR: podsGVR(), Namespaced: true, Namespace: "shop", LabelSelector: "app=web",
		Columns: []ObjectColumn{HealthColumn()}}
}

// rowsText is the rows of a source as text: key, uid, resourceVersion and cells of each, in key order.
func rowsText(s *ObjectSource) string {
	var b strings.Builder
	for _, r := range s.Snapshot(Query{SortColumn: -1}).Rows {
		fmt.Fprintf(&b, "%s %s %s %s %q\n", r.Key, r.Name, r.UID, r.ResourceVersion, r.Cells)
	}
	return b.String()
}

// healthScript runs a HEALTH source of path ("json": the dynamic informer; else the protobuf reflector) on a
// new server of healthPods through changes (a pod becomes ready, one is added, one deleted; then, while the
// watch is away, one is deleted and one changed, and the watch expires), and returns the rows after each step.
func healthScript(t *testing.T, path string, jsonOnly bool) (steps []string, f *fakeObjectsAPI) {
	return objectScript(t, path, jsonOnly, healthSpec(), "Current", "Current")
}

// objectScript is healthScript's script for a source of spec, whose first column reads readyCell for a ready
// pod and doneCell for the succeeded one.
func objectScript(t *testing.T, path string, jsonOnly bool, spec Spec, readyCell, doneCell string) (steps []string, f *fakeObjectsAPI) {
	f = newFakeObjectsAPI(t, healthPods()...)
	f.jsonOnly = jsonOnly
	var src *ObjectSource
	var err error
	if path == "json" {
		src, err = NewObjectSource(f.dynamicClient(t), spec)
	} else {
		src, err = NewObjectSourceWithConfig(f.config(), f.dynamicClient(t), spec)
		if err == nil && src.proto == nil {
			t.Fatal("a source of pods reads JSON")
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	src.Changes()
	src.Start(context.Background())
	defer src.Stop()
	waitFor(t, "synced", func() bool { return src.State().Phase == Synced && src.Len() == len(healthPods()) })
	steps = append(steps, rowsText(src))
	if cs := src.Changes(); !cs.Empty() {
		t.Errorf("%s: the first list's rows are changes: %+v", path, cs)
	}
	ready := []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	f.send(watch.Modified, healthPod("starting", corev1.PodRunning, ready))
	f.send(watch.Added, healthPod("new", corev1.PodPending, nil))
	f.send(watch.Deleted, healthPod("done", corev1.PodSucceeded, nil))
	waitFor(t, "the events", func() bool {
		r, ok := src.Row("shop/starting")
		_, gone := src.Row("shop/done")
		return ok && r.Cells[0] == readyCell && src.Len() == len(healthPods()) && !gone
	})
	cs := src.Changes()
	if len(cs.Added) != 1 || len(cs.Updated) != 1 || len(cs.Deleted) != 1 || cs.Deleted[0].Cells[0] != doneCell {
		t.Errorf("%s: changes %+v", path, cs)
	}
	steps = append(steps, rowsText(src))
	f.mu.Lock()
	delete(f.pods, "shop/lost")
	f.mu.Unlock()
	f.put(healthPod("pending", corev1.PodRunning, ready))
	f.expire <- struct{}{}
	waitFor(t, "the relist", func() bool {
		r, ok := src.Row("shop/pending")
		_, lost := src.Row("shop/lost")
		return ok && r.Cells[0] == readyCell && !lost && src.State().Phase == Synced
	})
	if lists := f.lists(); path != "json" && lists != 2 {
		t.Errorf("%d lists, want 2 (the first, the relist after 410 Gone): the watch broke", lists)
	}
	return append(steps, rowsText(src)), f
}

// lists counts the list requests the server has had.
func (f *fakeObjectsAPI) lists() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, q := range f.queries {
		if q.Get("watch") != "true" {
			n++
		}
	}
	return n
}

// TestHealthSourceSameAsJSONPath: the protobuf path's rows (keys, names, uids, resourceVersions and words)
// are the JSON path's, listed, after watch events and after a relist; it asks for protobuf, with the view's
// namespace and selector, and the server answers in it.
func TestHealthSourceSameAsJSONPath(t *testing.T) {
	want, _ := healthScript(t, "json", false)
	got, f := healthScript(t, "protobuf", false)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d: protobuf rows\n%s\nJSON path rows\n%s", i, got[i], want[i])
		}
	}
	if !strings.Contains(want[0], `shop/crashing crashing u-crashing 103 ["Failed"]`) ||
		!strings.Contains(want[0], `shop/deleting deleting u-deleting 107 ["Terminating"]`) {
		t.Errorf("rows\n%s", want[0])
	}
	checkProtobufRequests(t, f)
}

// checkProtobufRequests checks that every request f had asked for protobuf first, with the view's selector.
func checkProtobufRequests(t *testing.T, f *fakeObjectsAPI) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, a := range f.accepts {
		if !strings.HasPrefix(a, "application/vnd.kubernetes.protobuf") || f.queries[i].Get("labelSelector") != "app=web" {
			t.Errorf("request %d: Accept %q, query %v", i, a, f.queries[i])
		}
	}
}

// TestHealthSourceJSONAnswer: a server that answers in JSON although asked for protobuf gets the same rows.
func TestHealthSourceJSONAnswer(t *testing.T) {
	want, _ := healthScript(t, "protobuf", false)
	got, _ := healthScript(t, "protobuf", true)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d: rows read from JSON\n%s\nfrom protobuf\n%s", i, got[i], want[i])
		}
	}
}

// TestHealthSourceForbidden: a list the user may not make stops the source, Forbidden, with the server's
// words.
func TestHealthSourceForbidden(t *testing.T) {
	f := newFakeObjectsAPI(t)
	f.forbid = true
	src, err := NewObjectSourceWithConfig(f.config(), f.dynamicClient(t), healthSpec())
	if err != nil {
		t.Fatal(err)
	}
	src.Start(context.Background())
	defer src.Stop()
	waitFor(t, "forbidden", func() bool { return src.State().Phase == Forbidden })
	if st := src.State(); !strings.Contains(st.Message, `cannot list resource "pods"`) {
		t.Errorf("state %+v", st)
	}
}

// TestHealthSourceChoice: a source of HealthColumn alone over a kind health reads in protobuf takes the
// health codec, one of columns computed from fields over a kind of client-go's scheme the columns codec (both
// in protobuf); any other reads JSON alone (jsonCodec). None takes the dynamic informer.
func TestHealthSourceChoice(t *testing.T) {
	f := newFakeObjectsAPI(t)
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	name, err := JSONPathColumn("NAME", "{.metadata.name}")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		spec  Spec
		codec string
	}{
		{"pods", healthSpec(), "health"},
		{"deployments", Spec{GVR: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
			Namespaced: true, Columns: []ObjectColumn{HealthColumn()}}, "health"},
		{"a custom resource", Spec{GVR: widgets, Columns: []ObjectColumn{HealthColumn()}}, "json"},
		{"another column", Spec{GVR: podsGVR(), Columns: []ObjectColumn{name}}, "columns"},
		{"a column of a custom resource", Spec{GVR: widgets, Columns: []ObjectColumn{name}}, "json"},
		{"a column of a resource no kind serves", Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "podz"},
			Columns: []ObjectColumn{name}}, "json"},
		{"health and another column", Spec{GVR: podsGVR(), Columns: []ObjectColumn{HealthColumn(), name}}, "json"},
	} {
		src, err := NewObjectSourceWithConfig(f.config(), f.dynamicClient(t), tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		got := "informer"
		if src.proto != nil {
			switch src.proto.codec.(type) {
			case healthCodec:
				got = "health"
			case *columnsCodec:
				got = "columns"
			case jsonCodec:
				got = "json"
			}
			if src.proto.jsonOnly != (got == "json") {
				t.Errorf("%s: JSON only %v with the %s codec", tt.name, src.proto.jsonOnly, got)
			}
		}
		if got != tt.codec {
			t.Errorf("%s: %s codec, want %s", tt.name, got, tt.codec)
		}
	}
}
