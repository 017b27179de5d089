package watch

import (
	"context"
	"runtime"
	"testing"
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
	src, snap, per := syncedObjectSource(t, []ObjectColumn{HealthColumn()}, false)
	defer src.Stop()
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
}

// maxHealthProtoBytesPerRow bounds the live heap an ObjectSource of HealthColumn over pods holds per pod when
// it reads them in protobuf (NewObjectSourceWithConfig): its row (key, name, uid, resourceVersion, the shared
// word) and the row store's slot; no informer store.
const maxHealthProtoBytesPerRow = 500

// TestHealthProtoBytesPerRow: a HEALTH source over 10k Pending pods read in protobuf holds at most
// maxHealthProtoBytesPerRow per row, measured as heap growth, and every row has the pod's health.
func TestHealthProtoBytesPerRow(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 10k-pod list")
	}
	srv := serveBodies(podBodies(objectRows))
	defer srv.Close()
	f := &fakeObjectsAPI{srv: srv}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	src, err := NewObjectSourceWithConfig(f.config(), f.dynamicClient(t), Spec{GVR: podsGVR(), Namespaced: true,
		Namespace: "bench", Columns: []ObjectColumn{HealthColumn()}})
	if err != nil {
		t.Fatal(err)
	}
	src.Start(context.Background())
	defer src.Stop()
	waitForRows(t, src.Notify(), func() bool { return src.State().Phase == Synced && src.Len() == objectRows })
	snap := src.Snapshot(Query{SortColumn: -1})
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / objectRows
	t.Logf("%.0f bytes per row held by a synced health source read in protobuf at %d pods", per, len(snap.Rows))
	for _, r := range snap.Rows {
		if len(r.Cells) != 1 || r.Cells[0] != "Failed" { // Pending, unschedulable since long ago
			t.Fatalf("row %s: cells %q, want [Failed]", r.Key, r.Cells)
		}
	}
	if per > maxHealthProtoBytesPerRow {
		t.Errorf("%.0f bytes per row, want at most %d", per, maxHealthProtoBytesPerRow)
	}
	runtime.KeepAlive(snap)
}
