package watch

import (
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
