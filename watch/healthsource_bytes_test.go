package watch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// maxHealthBytesPerRow bounds the live heap an ObjectSource of HealthColumn (a table's HEALTH column) holds
// per pod: the informer's store of the cut-down objects (name, namespace, uid, resourceVersion and the status
// word) and the row store. Measured 2026-12-02 at 10k pods: 1366 B (an ObjectSource of NAME and IMAGE: 2662 B;
// a Table Source: 905 B).
const maxHealthBytesPerRow = 1700

// TestHealthBytesPerRow: an ObjectSource of HealthColumn synced on 10k realistic pods (about 4 KB of JSON
// each, spec and status included) holds at most maxHealthBytesPerRow per row, measured as heap growth, and
// every row has the pod's health.
func TestHealthBytesPerRow(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 10k-pod list")
	}
	list, stream := benchPodList(objectRows), benchPodStream(objectRows)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("watch") == "true" {
			w.WriteHeader(http.StatusOK)
			if r.URL.Query().Get("sendInitialEvents") == "true" {
				_, _ = w.Write(stream)
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		_, _ = w.Write(list)
	}))
	defer srv.Close()
	client, err := dynamic.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	src, err := NewObjectSource(client, Spec{GVR: podsGVR(), Namespaced: true, Namespace: "bench",
		Columns: []ObjectColumn{HealthColumn()}})
	if err != nil {
		t.Fatal(err)
	}
	src.Start(context.Background())
	defer src.Stop()
	waitForRows(t, src.Notify(), func() bool { return src.State().Phase == Synced && src.Len() == objectRows })
	snap := src.Snapshot(Query{SortColumn: -1})
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / objectRows
	t.Logf("%.0f bytes per row held by a synced health source at %d pods", per, len(snap.Rows))
	for _, r := range snap.Rows {
		if len(r.Cells) != 1 || r.Cells[0] != "Current" { // running and Ready
			t.Fatalf("row %s: cells %q, want [Current]", r.Key, r.Cells)
		}
	}
	if per > maxHealthBytesPerRow {
		t.Errorf("%.0f bytes per row, want at most %d", per, maxHealthBytesPerRow)
	}
	runtime.KeepAlive(snap)
	runtime.KeepAlive(list)
	runtime.KeepAlive(stream)
}
