package watch

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
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
// with every row, and none of them is reported as a change. The rest is one request (all namespaces: a pair).
func TestSourceFirstListInPages(t *testing.T) {
	for _, ns := range []string{"a", ""} {
		t.Run("namespace="+ns, func(t *testing.T) {
			f := newFakeAPI(t)
			fakePods(f, "a", 600)
			f.pageGate = make(chan struct{})
			f.fillGate = make(chan struct{}) // (the fill's pages are not the first list's)
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
			// All namespaces: the rest is asked for as rows without objects and a metadata list, joined.
			wantPages, wantJoined := 1, 0
			if ns == "" {
				wantPages, wantJoined = 2, 1
			}
			if f.pages != wantPages {
				t.Errorf("%d requests for the rest, want %d (250 rows, then the other 350 at once)", f.pages, wantPages)
			}
			if got := src.Pulse().FirstList.JoinedPages; got != wantJoined {
				t.Errorf("%d joined pages, want %d", got, wantJoined)
			}
		})
	}
}

// TestSourceJoinedPageMismatch: when the rows of a page and its metadata list do not match one to one (here
// the metadata come in reverse), no row takes another's metadata: the page is asked for again as a Table with
// metadata, and every row carries its own.
func TestSourceJoinedPageMismatch(t *testing.T) {
	f := newFakeAPI(t)
	for i := range 600 {
		f.set(fmt.Sprintf("a/p-%03d", i), "Running", map[string]string{"n": fmt.Sprint(i)}, false)
	}
	f.misorderMetadata = true
	src := f.source(t, "")
	src.Start(context.Background())
	waitSource(t, src, "synced table", func() bool { return src.State().Phase == Synced && src.Len() == 600 })
	for _, r := range src.Snapshot(Query{SortColumn: -1}).Rows {
		i, _ := strconv.Atoi(strings.TrimPrefix(r.Name, "p-"))
		if r.UID != types.UID("uid-"+r.Name) || r.Labels["n"] != strconv.Itoa(i) {
			t.Fatalf("row %s has UID %s, labels %v", r.Name, r.UID, r.Labels)
		}
	}
	if got := src.Pulse().FirstList.JoinedPages; got != 0 {
		t.Errorf("%d joined pages, want 0 (the misordered pair refused)", got)
	}
	if n := f.count(metav1.IncludeMetadata); n != 2 {
		t.Errorf("%d Tables with metadata, want 2 (the first page, and the refused page again)", n)
	}
}

// TestSourceFirstListPageFails: when the rest of the first list fails, the rows already shown go (the
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
		t.Errorf("%d requests for the rest, want the failed one and the next", f.pages)
	}
}
