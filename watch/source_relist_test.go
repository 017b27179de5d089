package watch

import (
	"maps"
	"slices"
	"strconv"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestSourceRelistKeepsMetadata: a one-namespace view relists without metadata after its watch expires (410
// Gone). Rows whose cells did not change are not reported and keep their labels and UID (a -l filter still
// matches them); rows that changed meanwhile are reported; the fill then completes the relisted rows, reports
// a label change the relist could not see, and leaves every row equal to the server's.
func TestSourceRelistKeepsMetadata(t *testing.T) {
	f := newFakeAPI(t)
	x, y := map[string]string{"app": "x"}, map[string]string{"app": "y"}
	for _, k := range []string{"shop/a", "shop/b", "shop/c", "shop/zz"} {
		f.set(k, "Running", x, false)
	}
	s := f.source(t, "shop")
	s.Changes()
	s.Start(t.Context())
	waitFor(t, "filled rows", func() bool { return filledRows(s, "a", "b", "c", "zz") })
	a, _ := s.Row("shop/a")
	if cs := s.Changes(); !cs.Empty() {
		t.Fatalf("changes after the first list: %+v", cs)
	}

	// While the watch is down: b fails, c is relabelled, d appears; the fill of the relist waits.
	f.set("shop/b", "Failed", x, false)
	f.set("shop/c", "Running", y, false)
	f.set("shop/d", "Pending", x, false)
	f.mu.Lock()
	gate := make(chan struct{})
	f.fillGate = gate
	f.mu.Unlock()
	f.expire <- struct{}{}
	waitFor(t, "the second watch", func() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.watches == 2 })
	f.set("shop/zz", "Succeeded", x, true) // delivered after every row of the relist
	waitFor(t, "the relist's rows", func() bool { zz, _ := s.Row("shop/zz"); return zz.Cells[1] == "Succeeded" })
	if f.count(metav1.IncludeNone) != 2 {
		t.Fatalf("%d metadata-less lists, want 2 (the first and the relist)", f.count(metav1.IncludeNone))
	}

	if r, _ := s.Row("shop/a"); r != a {
		t.Errorf("unchanged row a was replaced: %+v", r)
	}
	if b, _ := s.Row("shop/b"); b.Cells[1] != "Failed" || b.UID != "uid-b" || b.Labels["app"] != "x" {
		t.Errorf("row b after the relist: %+v, want the new cells with the old UID and labels", b)
	}
	sel, _ := ParseFilter("-l app=x")
	var matched []string
	for _, r := range s.Snapshot(Query{SortColumn: -1, Filter: sel}).Rows {
		matched = append(matched, r.Name)
	}
	if !slices.Equal(matched, []string{"a", "b", "c", "zz"}) {
		t.Errorf("-l app=x matches %v after the relist, want a b c zz (d has no labels until the fill)", matched)
	}
	if cs := s.Changes(); !slices.Equal(cs.Updated, []string{"shop/b", "shop/zz"}) ||
		!slices.Equal(cs.Added, []string{"shop/d"}) || len(cs.Deleted) > 0 {
		t.Errorf("changes of the relist: %+v, want b and zz updated, d added", cs)
	}

	close(gate)
	waitFor(t, "the relist's fill", func() bool { return f.count(metav1.IncludeMetadata) == 2 && filledRows(s, "d") })
	waitFor(t, "rows equal to the server's", func() bool { return sameAsServer(t, f, s, false) })
	sameAsServer(t, f, s, true)
	if cs := s.Changes(); !slices.Equal(cs.Updated, []string{"shop/c"}) || len(cs.Added)+len(cs.Deleted) > 0 {
		t.Errorf("changes of the fill: %+v, want c (relabelled) updated", cs)
	}
}

// filledRows tells whether s holds rows with metadata for the pods named in namespace shop.
func filledRows(s *Source, names ...string) bool {
	for _, n := range names {
		if r, ok := s.Row("shop/" + n); !ok || r.ResourceVersion == "" {
			return false
		}
	}
	return true
}

// sameAsServer tells whether every row of s equals the server's pod (Age aside); with report, it says how not.
func sameAsServer(t *testing.T, f *fakeAPI, s *Source, report bool) bool {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	ok := s.Len() == len(f.pods)
	for key, p := range f.pods {
		r, found := s.Row(key)
		if !found || r.UID != p.uid || r.ResourceVersion != strconv.Itoa(p.rv) || !maps.Equal(r.Labels, p.labels) ||
			!r.Created.Equal(p.created.Truncate(time.Second)) || r.Cells[1] != p.status {
			ok = false
			if report {
				t.Errorf("row %s: %+v, want the server's %+v", key, r, *p)
			}
		}
	}
	return ok
}
