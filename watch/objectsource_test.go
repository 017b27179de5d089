package watch

import (
	"context"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
)

// objectColumns are NAME and IMAGE as `-o custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[*].image`.
func objectColumns(t *testing.T) []ObjectColumn {
	t.Helper()
	var cols []ObjectColumn
	for _, c := range [][2]string{{"NAME", "{.metadata.name}"}, {"IMAGE", "{.spec.containers[*].image}"}} {
		oc, err := JSONPathColumn(c[0], c[1])
		if err != nil {
			t.Fatal(err)
		}
		cols = append(cols, oc)
	}
	return cols
}

func fakePodsClient(objs ...runtime.Object) *dynamicfake.FakeDynamicClient {
	return dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{podsGVR(): "PodList"}, objs...)
}

// TestObjectSourceLive: an ObjectSource lists, then follows additions, updates and deletions, with rows of the
// columns' cells and the objects' metadata, and reports them as changes.
func TestObjectSourceLive(t *testing.T) {
	pods := podFixtures(t)
	client := fakePodsClient(pods[0], pods[1])
	src, err := NewObjectSource(client, Spec{GVR: podsGVR(), Namespaced: true, Namespace: "shop", Columns: objectColumns(t)})
	if err != nil {
		t.Fatal(err)
	}
	src.Changes()
	src.Start(context.Background())
	defer src.Stop()
	waitFor(t, "synced with 2 rows", func() bool { return src.State().Phase == Synced && src.Len() == 2 })
	r, ok := src.Row("shop/web-1")
	if !ok || r.Cells[0] != "web-1" || r.Cells[1] != "nginx:1.27,busybox:1.36" || r.UID != "u-1" ||
		r.ResourceVersion != "101" || r.Labels["app"] != "web" || r.Created.IsZero() {
		t.Fatalf("row %+v", r)
	}
	if cs := src.Changes(); !cs.Empty() {
		t.Errorf("the first list's rows are changes: %+v", cs)
	}
	if got := src.Snapshot(Query{SortColumn: -1, Filter: mustFilter(t, "busybox")}).Rows; len(got) != 1 {
		t.Errorf("filter busybox: %d rows, want 1", len(got))
	}

	ctx := context.Background()
	upd := pods[1].DeepCopy()
	upd.SetResourceVersion("200")
	unstructured.SetNestedSlice(upd.Object, []any{map[string]any{"name": "run", "image": "alpine:3.21"}}, "spec", "containers")
	if _, err := client.Resource(podsGVR()).Namespace("shop").Update(ctx, upd, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	added := pods[0].DeepCopy()
	added.SetName("web-9")
	added.SetUID("u-9")
	if _, err := client.Resource(podsGVR()).Namespace("shop").Create(ctx, added, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := client.Resource(podsGVR()).Namespace("shop").Delete(ctx, "web-1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the update, addition and deletion", func() bool {
		r, ok := src.Row("shop/job-2")
		_, gone := src.Row("shop/web-1")
		_, in := src.Row("shop/web-9")
		return ok && r.Cells[1] == "alpine:3.21" && !gone && in
	})
	cs := src.Changes()
	if len(cs.Added) != 1 || cs.Added[0] != "shop/web-9" || len(cs.Updated) != 1 || cs.Updated[0] != "shop/job-2" ||
		len(cs.Deleted) != 1 || cs.Deleted[0].Key != "shop/web-1" {
		t.Errorf("changes %+v", cs)
	}
	snap := src.Snapshot(Query{SortColumn: 1, Descending: true})
	if len(snap.Rows) != 2 || snap.Rows[0].Name != "web-9" {
		t.Errorf("sorted by IMAGE descending: %v", rowNames(snap.Rows))
	}
}

// TestObjectSourceForbidden: a list the server forbids makes the source Forbidden, with the server's words.
func TestObjectSourceForbidden(t *testing.T) {
	client := fakePodsClient()
	client.PrependReactor("list", "pods", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errForbiddenText)
	})
	src, err := NewObjectSource(client, Spec{GVR: podsGVR(), Namespaced: true, Columns: objectColumns(t)})
	if err != nil {
		t.Fatal(err)
	}
	src.Start(context.Background())
	defer src.Stop()
	waitFor(t, "forbidden", func() bool { return src.State().Phase == Forbidden })
	select {
	case <-src.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the informer did not stop on a terminal error")
	}
	if msg := src.State().Message; msg == "" {
		t.Error("no message")
	}
	src.Stop()
	if st := src.State(); st.Phase != Forbidden {
		t.Errorf("after Stop: %s, want the terminal phase kept", st.Phase)
	}
}

var errForbiddenText = errString("user cannot list pods")

type errString string

func (e errString) Error() string { return string(e) }

func mustFilter(t *testing.T, text string) Filter {
	t.Helper()
	f, err := ParseFilter(text)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func rowNames(rows []*Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Name)
	}
	return out
}
