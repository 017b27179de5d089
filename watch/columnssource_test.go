package watch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// columnsSpec is the spec of custom columns over the pods of namespace shop: the Ready condition's status
// first, then columns of several shapes.
func columnsSpec(t *testing.T) Spec {
	spec := Spec{GVR: podsGVR(), Namespaced: true, Namespace: "shop", LabelSelector: "app=web"}
	for _, expr := range []string{`{.status.conditions[?(@.type=="Ready")].status}`, "{.metadata.name}",
		"{.spec.containers[*].image}", "{.status.phase}", "{.kind}", "{.metadata.finalizers}",
		"{.status.containerStatuses[*].state}"} { // (no times: each run's pods are made at its own time)
		c, err := JSONPathColumn(expr, expr)
		if err != nil {
			t.Fatal(err)
		}
		spec.Columns = append(spec.Columns, c)
	}
	return spec
}

// TestColumnsSourceSameAsJSONPath: a source of custom columns over pods reads them in protobuf, and its rows
// (keys, names, uids, resourceVersions and every cell) are the JSON path's, listed, after watch events and
// after a relist; a server that answers in JSON gives the same rows.
func TestColumnsSourceSameAsJSONPath(t *testing.T) {
	want, _ := objectScript(t, "json", false, columnsSpec(t), "True", "<none>")
	got, f := objectScript(t, "protobuf", false, columnsSpec(t), "True", "<none>")
	fromJSON, _ := objectScript(t, "protobuf", true, columnsSpec(t), "True", "<none>")
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d: protobuf rows\n%s\nJSON path rows\n%s", i, got[i], want[i])
		}
		if fromJSON[i] != want[i] {
			t.Errorf("step %d: rows of a JSON answer\n%s\nJSON path rows\n%s", i, fromJSON[i], want[i])
		}
	}
	if !strings.Contains(want[0], `shop/ready ready u-ready 101 ["True" "ready" "nginx" "Running" "Pod" "<none>" "<none>"]`) ||
		!strings.Contains(want[0], `"[example.com/hold]" "<none>"]`) ||
		!strings.Contains(want[0], `"map[waiting:map[reason:CrashLoopBackOff]]"]`) {
		t.Errorf("rows\n%s", want[0])
	}
	checkProtobufRequests(t, f)
}

// TestProtoSourceShowsRowsWhileListing: the rows of a first list are in the source as they arrive, while it
// is still listing, and are not changes; the source syncs with all of them once the list ends. So for a list
// read in protobuf (pods: columnsCodec) and one read in JSON (a custom resource: jsonCodec).
func TestProtoSourceShowsRowsWhileListing(t *testing.T) {
	bodies := podBodies(200)
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	for _, tt := range []struct {
		name  string
		gvr   schema.GroupVersionResource
		proto bool
		body  []byte
	}{
		{"protobuf", podsGVR(), true, bodies.protoList},
		{"json", widgets, false, bodies.jsonList},
	} {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", wireType(tt.proto))
				if r.URL.Query().Get("watch") == "true" {
					w.WriteHeader(http.StatusOK)
					w.(http.Flusher).Flush()
					<-r.Context().Done()
					return
				}
				_, _ = w.Write(tt.body[:len(tt.body)/2])
				w.(http.Flusher).Flush()
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
				_, _ = w.Write(tt.body[len(tt.body)/2:])
			}))
			defer srv.Close()
			f := &fakeObjectsAPI{srv: srv}
			name, err := JSONPathColumn("NAME", "{.metadata.name}")
			if err != nil {
				t.Fatal(err)
			}
			src, err := NewObjectSourceWithConfig(f.config(), f.dynamicClient(t),
				Spec{GVR: tt.gvr, Namespaced: true, Namespace: "bench", Columns: []ObjectColumn{name}})
			if err != nil {
				t.Fatal(err)
			}
			src.Start(context.Background())
			defer src.Stop()
			waitFor(t, "rows while listing", func() bool { return src.Len() > 50 })
			if st := src.State(); st.Phase != Listing {
				t.Errorf("state %+v with half of the list", st)
			}
			close(release)
			waitFor(t, "synced", func() bool { return src.State().Phase == Synced && src.Len() == 200 })
			if r, ok := src.Row("bench/bench-7d9f8c-00042"); !ok || r.Cells[0] != "bench-7d9f8c-00042" {
				t.Errorf("row %+v", r)
			}
			if cs := src.Changes(); !cs.Empty() {
				t.Errorf("the first list's rows are changes: %d added, %d updated", len(cs.Added), len(cs.Updated))
			}
		})
	}
}
