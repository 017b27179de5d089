package watch

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

func versionRow(name string, rv int, restarts string) *Row {
	return &Row{Key: "shop/" + name, Namespace: "shop", Name: name, UID: types.UID("uid-" + name),
		ResourceVersion: strconv.Itoa(rv), Cells: []string{name, "Running", restarts}}
}

// TestRowVersions: the first list is not history; each reported change is, with the version before a row's
// first change first (unseen time); the bounds per object and in all hold, the oldest dropped first.
func TestRowVersions(t *testing.T) {
	cases := []struct {
		name          string
		perKey, total int32
		keys, updates int // updates per key, after the listed version
		wantPerKey    int // versions kept of the last key
		wantTotal     int
		wantOldestRV  int // the resourceVersion of the last key's oldest kept version
	}{
		{"three patches", 0, 0, 1, 3, 4, 4, 1},
		{"1000 updates of one row", 0, 0, 1, 1000, RowVersionsPerObject, RowVersionsPerObject, 1001 - RowVersionsPerObject + 1},
		{"1000 updates over 300 rows", 0, 0, 300, 1000 / 300, 4, 300 * 4, 1},
		{"total bound", 10, 25, 4, 9, 7, 25, 4}, // the last 25 of 40: rounds 4–9 and pod-3 of round 3
		{"total smaller than one key", 10, 5, 1, 20, 5, 5, 21 - 5 + 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rows []*Row
			for k := 0; k < c.keys; k++ {
				rows = append(rows, versionRow(fmt.Sprint("pod-", k), 1, "0"))
			}
			src := NewStaticSource(Spec{}, nil, rows...)
			src.store.history.perKey, src.store.history.total = c.perKey, c.total
			if v := src.Versions("shop/pod-0"); v != nil {
				t.Fatalf("versions before any change = %v", v)
			}
			for u := 1; u <= c.updates; u++ {
				for k := 0; k < c.keys; k++ {
					src.Put(versionRow(fmt.Sprint("pod-", k), u+1, strconv.Itoa(u)))
				}
			}
			last := fmt.Sprintf("shop/pod-%d", c.keys-1)
			got := src.Versions(last)
			if len(got) != c.wantPerKey {
				t.Fatalf("versions of %s = %d, want %d", last, len(got), c.wantPerKey)
			}
			if rv, _ := strconv.Atoi(got[0].Row.ResourceVersion); rv != c.wantOldestRV {
				t.Errorf("oldest kept resourceVersion = %d, want %d", rv, c.wantOldestRV)
			}
			if (got[0].Seen.IsZero()) != (c.wantOldestRV == 1) {
				t.Errorf("oldest version seen at %v (listed: %v)", got[0].Seen, c.wantOldestRV == 1)
			}
			for i := 1; i < len(got); i++ {
				a, _ := strconv.Atoi(got[i-1].Row.ResourceVersion)
				b, _ := strconv.Atoi(got[i].Row.ResourceVersion)
				if b != a+1 || got[i].Seen.IsZero() {
					t.Fatalf("version %d: resourceVersion %d after %d, seen %v", i, b, a, got[i].Seen)
				}
			}
			src.store.mu.Lock()
			total := src.store.history.len()
			src.store.mu.Unlock()
			if total != c.wantTotal {
				t.Errorf("versions kept in all = %d, want %d", total, c.wantTotal)
			}
		})
	}
}

// TestRowVersionsAddedAndStopped: a row added after the list starts its history with itself; Stop drops
// every version.
func TestRowVersionsAddedAndStopped(t *testing.T) {
	src := NewStaticSource(Spec{}, nil)
	src.Put(versionRow("new", 5, "0"))
	src.Put(versionRow("new", 6, "1"))
	got := src.Versions("shop/new")
	if len(got) != 2 || got[0].Seen.IsZero() || got[1].Row.Cells[2] != "1" {
		t.Fatalf("versions = %+v", got)
	}
	src.Stop()
	if v := src.Versions("shop/new"); v != nil {
		t.Errorf("versions after Stop = %v", v)
	}
}

// TestRowVersionsAllocateNothing: once the ring is grown, recording a change of a known row allocates
// nothing (the table's change path stays as it was).
func TestRowVersionsAllocateNothing(t *testing.T) {
	var h rowHistory
	h.now = func() time.Time { return time.Unix(1, 0) }
	rows := make([]*Row, 64)
	for i := range rows {
		rows[i] = versionRow(fmt.Sprint("pod-", i%8), i, "0")
	}
	for i := 0; i < RowVersionsTotal+1; i++ {
		h.add(rows[(i+63)%64], rows[i%64])
	}
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		h.add(rows[(i+63)%64], rows[i%64])
		i++
	})
	if allocs != 0 {
		t.Errorf("allocations per recorded change = %v, want 0", allocs)
	}
}
