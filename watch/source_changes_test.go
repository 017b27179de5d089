package watch

import (
	"fmt"
	"slices"
	"testing"
)

// TestSourceInitialListNotReported: the rows of the first list are the table, not changes: Changes reports
// nothing for them (metadata fill included), and only what changes afterwards.
func TestSourceInitialListNotReported(t *testing.T) {
	for _, ns := range []string{"shop", ""} {
		name := map[string]string{"shop": "one namespace", "": "all namespaces"}[ns]
		t.Run(name, func(t *testing.T) {
			f := newFakeAPI(t)
			f.set("shop/a", "Running", map[string]string{"app": "x"}, false)
			f.set("shop/b", "Running", map[string]string{"app": "x"}, false)
			s := f.source(t, ns)
			s.Changes() // a reader drains from the start, as a table does
			s.Start(t.Context())
			waitFor(t, "synced, filled rows", func() bool {
				a, _ := s.Row("shop/a")
				b, _ := s.Row("shop/b")
				return s.State().Phase == Synced && a != nil && a.UID != "" && b != nil && b.UID != ""
			})
			if cs := s.Changes(); !cs.Empty() {
				t.Fatalf("changes after the first list: %+v, want none", cs)
			}
			f.set("shop/a", "Failed", map[string]string{"app": "x"}, true)
			f.set("shop/c", "Pending", nil, true)
			waitFor(t, "the watched changes", func() bool {
				a, _ := s.Row("shop/a")
				_, ok := s.Row("shop/c")
				return ok && a.Cells[len(a.Cells)-2] == "Failed"
			})
			cs := s.Changes()
			if !slices.Equal(cs.Added, []string{"shop/c"}) || !slices.Equal(cs.Updated, []string{"shop/a"}) ||
				len(cs.Deleted) > 0 {
				t.Fatalf("changes %+v, want shop/c added and shop/a updated", cs)
			}
		})
	}
}

// TestChangeFeedKeptOnceRead: a Source read only through Snapshot (the namespace names behind `:ns`
// completion) keeps no change feed, so the rows it deletes are not held for the session; once Changes has been
// called, the feed holds at most one entry per row the store held since.
func TestChangeFeedKeptOnceRead(t *testing.T) {
	tests := []struct {
		name    string
		read    bool // Changes is called before the first list
		deleted int  // rows Changes reports deleted at the end
	}{
		{"read only through snapshots", false, 0},
		{"changes read", true, 300},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSourceStore()
			var snaps snapshotter
			if tt.read {
				s.drain()
			}
			listed := testRows(300)
			for _, r := range listed {
				s.putListed(r)
			}
			snaps.snapshot(s, Query{SortColumn: -1}, testColumns, 1)
			for _, r := range listed {
				s.remove(r.Key, nil)
			}
			for i := range 2000 { // churn: objects come and go
				r := row(fmt.Sprintf("churn-%d", i), "1", "x")
				s.put(r)
				s.remove(r.Key, nil)
				if i%100 == 0 {
					snaps.snapshot(s, Query{SortColumn: -1}, testColumns, 1)
				}
			}
			s.mu.Lock()
			held := len(s.added) + len(s.updated) + len(s.deleted)
			s.mu.Unlock()
			if held > tt.deleted {
				t.Fatalf("the change feed holds %d entries, want at most %d", held, tt.deleted)
			}
			if !tt.read {
				return
			}
			if cs := s.drain(); len(cs.Deleted) != tt.deleted || len(cs.Added)+len(cs.Updated) > 0 {
				t.Fatalf("changes: %d added, %d updated, %d deleted, want %d deleted",
					len(cs.Added), len(cs.Updated), len(cs.Deleted), tt.deleted)
			}
		})
	}
}
