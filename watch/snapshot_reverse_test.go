package watch

import (
	"fmt"
	"testing"
	"time"
)

// TestReversedSnapshotMatchesSort checks that a snapshot reversed from the cached opposite direction (with
// ties on the column, and filtered) equals one sorted from scratch, for every column.
func TestReversedSnapshotMatchesSort(t *testing.T) {
	cols := []Column{{Name: "Name", Format: "name"}, {Name: "Status", Type: "string"},
		{Name: "Restarts", Type: "integer"}, {Name: "Age", Type: "date", Age: true}}
	s := newRowStore()
	for i := range 300 {
		s.put(&Row{Key: fmt.Sprintf("ns/pod-%d", i), Namespace: "ns", Name: fmt.Sprintf("pod-%d", i),
			ResourceVersion: "1", Created: time.Unix(int64(i%7), 0),
			Cells: []string{fmt.Sprintf("pod-%d", i), []string{"Running", "Pending", "Failed"}[i%3], fmt.Sprint(i % 5), ""}})
	}
	f, err := ParseFilter("pod-1")
	if err != nil {
		t.Fatal(err)
	}
	for col := -1; col < len(cols); col++ {
		for _, desc := range []bool{false, true} {
			for _, filter := range []Filter{{}, f} {
				q := Query{SortColumn: col, Descending: desc, Filter: filter}
				var fresh, reversed snapshotter
				want := fresh.snapshot(s, q, cols, 1)
				reversed.snapshot(s, Query{SortColumn: col, Descending: !desc}, cols, 1)
				got := reversed.snapshot(s, q, cols, 1)
				if len(got.Rows) != len(want.Rows) || got.Total != want.Total {
					t.Fatalf("%+v: %d of %d rows, want %d of %d", q, len(got.Rows), got.Total, len(want.Rows), want.Total)
				}
				for i := range want.Rows {
					if got.Rows[i] != want.Rows[i] {
						t.Fatalf("%+v: row %d is %s, want %s", q, i, got.Rows[i].Key, want.Rows[i].Key)
					}
				}
			}
		}
	}
}

// BenchmarkSortFlip measures the Snapshot at 50k rows when the user presses the sort key again: the same
// column in the other direction, with the first direction cached.
func BenchmarkSortFlip(b *testing.B) {
	s, cols := benchSource(b)
	for _, col := range []int{0, 2} {
		b.Run(cols[col].Name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				var snaps snapshotter
				snaps.snapshot(s, Query{SortColumn: col}, cols, 1)
				b.StartTimer()
				snaps.snapshot(s, Query{SortColumn: col, Descending: true}, cols, 1)
			}
		})
	}
}
