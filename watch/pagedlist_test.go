package watch

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// fakePods adds n pods named p-000 … to namespace ns of f.
func fakePods(f *fakeAPI, ns string, n int) {
	for i := range n {
		f.set(fmt.Sprintf("%s/p-%03d", ns, i), "Running", map[string]string{"app": "x"}, false)
	}
}

// waitSource waits up to 10 s for cond on src, checked at each of its signals.
func waitSource(t *testing.T, src *Source, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-src.Notify():
		case <-deadline:
			st := src.State()
			t.Fatalf("no %s after 10 s: %s (expected %d) with %d rows, %v", what, st.Phase, st.Expected, src.Len(), st.Err)
		}
	}
}

// TestSourceFirstListInPages: the first page of the first list is on show (as listed rows, with the count the
// server announced) while the rest is still held by the server; once the rest arrives the source is synced
// with every row, and none of them is reported as a change.
func TestSourceFirstListInPages(t *testing.T) {
	for _, ns := range []string{"a", ""} {
		t.Run("namespace="+ns, func(t *testing.T) {
			f := newFakeAPI(t)
			fakePods(f, "a", 600)
			f.pageGate = make(chan struct{})
			src := f.source(t, ns)
			src.Changes() // keep the change feed from the start
			src.Start(context.Background())
			waitSource(t, src, "first page", func() bool { return src.Len() == firstPageRows })
			if st := src.State(); st.Phase != Listing || st.Expected != 600 {
				t.Fatalf("with the first page shown: %s, expected %d; want listing, 600", st.Phase, st.Expected)
			}
			snap := src.Snapshot(Query{SortColumn: -1})
			if len(snap.Rows) != firstPageRows || snap.Rows[0].Name != "p-000" || snap.Rows[firstPageRows-1].Name != "p-249" {
				t.Fatalf("first page rows: %d, from %s", len(snap.Rows), snap.Rows[0].Name)
			}
			close(f.pageGate)
			waitSource(t, src, "synced table", func() bool { return src.State().Phase == Synced && src.Len() == 600 })
			if st := src.State(); st.Expected != 0 {
				t.Errorf("synced with Expected %d, want 0", st.Expected)
			}
			if cs := src.Changes(); !cs.Empty() {
				t.Errorf("the first list reported as changes: %d added, %d updated", len(cs.Added), len(cs.Updated))
			}
			if f.pages != 1 {
				t.Errorf("%d requests for later pages, want 1 (250 rows, then the other 350 in one page)", f.pages)
			}
		})
	}
}

// TestSourceFirstListPageFails: when a later page of the first list fails, the rows already shown go (the
// informer holds none of them and lists again), so a pod deleted before that new list is not left on
// screen; the new list's rows are the server's.
func TestSourceFirstListPageFails(t *testing.T) {
	f := newFakeAPI(t)
	fakePods(f, "a", 600)
	f.pageGate, f.pageFails = make(chan struct{}), 1
	src := f.source(t, "a")
	src.Start(context.Background())
	waitSource(t, src, "first page", func() bool { return src.Len() == firstPageRows })
	f.mu.Lock()
	delete(f.pods, "a/p-000") // deleted between the failed list and the next (no watch is open yet)
	f.mu.Unlock()
	close(f.pageGate)
	waitSource(t, src, "synced table", func() bool { return src.State().Phase == Synced && src.Len() == 599 })
	if r, ok := src.Row("a/p-000"); ok {
		t.Fatalf("a pod deleted before the second list is still shown: %+v", r)
	}
	if f.pages < 2 {
		t.Errorf("%d requests for later pages, want the failed one and the next", f.pages)
	}
}
