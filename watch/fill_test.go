package watch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
)

// TestStoreFillBeforeDelivery: the metadata fill's list can arrive before the informer has delivered the
// metadata-less rows it completes; those rows still end up filled, and stale early rows never fill a later list.
func TestStoreFillBeforeDelivery(t *testing.T) {
	bare := func(key string) *Row { return row(key, "", key, "5m") }
	full := func(key, rv string) *Row {
		r := row(key, rv, key, "5m")
		r.UID, r.Labels = types.UID("uid-"+key), map[string]string{"app": key}
		return r
	}
	s := newRowStore()
	gen := s.earlyReset() // a metadata-less list at rv 10 ...
	if s.fill(full("a", "11"), gen) || s.fill(full("b", "11"), gen) || s.fill(full("gone", "11"), gen) {
		t.Fatal("fill replaced a row the store does not hold")
	}
	s.put(bare("a")) // ... delivered after its fill
	s.put(bare("b"))
	for _, k := range []string{"a", "b"} {
		if r, _ := s.get(k); r.ResourceVersion != "11" || r.Labels["app"] != k {
			t.Errorf("row %s after delivery: rv %q labels %v, want the filled row", k, r.ResourceVersion, r.Labels)
		}
	}
	if cs := s.drain(); !slices.Equal(cs.Added, []string{"a", "b"}) || len(cs.Updated) > 0 {
		t.Errorf("changes %+v, want a and b added once", cs)
	}
	// A watch event for a key the early fill saw replaces the early row.
	s.fill(full("c", "12"), gen)
	s.put(full("c", "13"))
	s.remove("c", nil)
	s.put(bare("c"))
	if r, _ := s.get("c"); r.ResourceVersion != "" {
		t.Errorf("row c took an early row the watch had superseded: rv %q", r.ResourceVersion)
	}
	// The next metadata-less list forgets what the previous fill listed ahead ("gone" was deleted meanwhile).
	s.earlyReset()
	s.put(bare("gone"))
	if r, _ := s.get("gone"); r.ResourceVersion != "" {
		t.Errorf("a new list's row took an older fill's metadata: rv %q", r.ResourceVersion)
	}
}

// TestFillRetriesUntilListed: a failing metadata list is retried with backoff, says so in a note while it
// fails, and fills the rows once the server answers.
func TestFillRetriesUntilListed(t *testing.T) {
	var fails atomic.Int32
	fails.Store(3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("includeObject") != "Metadata" || fails.Add(-1) >= 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcd is busy","reason":"ServiceUnavailable","code":503}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(podTable))
	}))
	defer srv.Close()
	client, err := newTableClient(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}, Namespaced: true, Namespace: "shop"}
	lw := &tableListWatch{client: client, spec: spec, conv: newConverter(false, nil)}
	store := newRowStore()
	store.put(&Row{Key: "shop/web-1", Namespace: "shop", Name: "web-1", Cells: []string{"web-1"}})
	var notes []string
	f := newMetadataFill(lw, store, func() {}, func(n string) { notes = append(notes, n) })
	f.backoff = time.Millisecond
	f.fill(context.Background(), listing{resourceVersion: "100"})
	if r, _ := store.get("shop/web-1"); r.ResourceVersion != "101" || r.UID != "u1" || r.Labels["app"] != "web" {
		t.Fatalf("row after the fill: %+v", r)
	}
	if len(notes) != 4 || notes[3] != "" || !strings.HasPrefix(notes[0], "labels pending: etcd is busy, retrying") {
		t.Fatalf("notes %q, want three failures then a clear note", notes)
	}
}
