package watch

import (
	"fmt"
	"slices"
	"testing"
)

// TestSnapshotLogBounded: the change log holds only what the cached snapshots still in use need. A snapshot
// cached before the columns were known (version 0) is never asked for again, and a query left idle must not
// pin the log either: neither may let it grow until it resets and forces the live query to re-sort.
func TestSnapshotLogBounded(t *testing.T) {
	live := Query{SortColumn: -1}
	tests := []struct {
		name   string
		before func(*snapshotter, *rowStore) // a snapshot taken before the changes, then never again
		maxLog int                           // the longest log allowed after each snapshot of the live query
	}{
		{"snapshot before the columns were known",
			func(sn *snapshotter, st *rowStore) { sn.snapshot(st, live, nil, 0) }, 0},
		{"another query left idle",
			func(sn *snapshotter, st *rowStore) { sn.snapshot(st, Query{SortColumn: 3}, testColumns, 1) },
			4096 / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := newRowStore()
			var snaps snapshotter
			pool := testRows(200)
			for _, r := range pool {
				store.put(r)
			}
			tt.before(&snaps, store)
			snaps.snapshot(store, live, testColumns, 1)
			for i := range 5000 {
				c := *pool[i%len(pool)]
				c.ResourceVersion = fmt.Sprint(1000 + i)
				c.Cells = slices.Clone(c.Cells)
				c.Cells[3] = fmt.Sprint(i)
				store.put(&c)
				snaps.snapshot(store, live, testColumns, 1)
				store.mu.Lock()
				n := len(store.log)
				store.mu.Unlock()
				if n > tt.maxLog {
					t.Fatalf("after change %d: %d changes logged, want at most %d", i+1, n, tt.maxLog)
				}
			}
			got := snaps.snapshot(store, live, testColumns, 1)
			want := sortRows(store.since(0, false).all, newRowOrder(live, testColumns))
			if !slices.Equal(got.Rows, want) {
				t.Fatal("the live snapshot differs from a full sort")
			}
		})
	}
}
