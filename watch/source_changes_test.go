package watch

import (
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
