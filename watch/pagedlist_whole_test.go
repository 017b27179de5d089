package watch

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// wholeQueries returns the indexes in f.queries of the requests for a whole list not older than a version.
func wholeQueries(f *fakeAPI) []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var at []int
	for i, q := range f.queries {
		if q.Get("resourceVersionMatch") == "NotOlderThan" && !q.Has("limit") && !q.Has("continue") {
			at = append(at, i)
		}
	}
	return at
}

// TestSourceFirstListRestWhole: a list longer than its first page asks for the rest at once, as the whole list
// not older than the first page (its resourceVersion, resourceVersionMatch=NotOlderThan, no limit, no
// continue token), never in continue pages; a list that fits its first page asks for nothing more.
func TestSourceFirstListRestWhole(t *testing.T) {
	for _, ns := range []string{"a", ""} {
		for _, pods := range []int{600, 100} {
			t.Run(fmt.Sprintf("namespace=%s,pods=%d", ns, pods), func(t *testing.T) {
				f := newFakeAPI(t)
				fakePods(f, "a", pods)
				head := f.resourceVersion()
				f.fillGate = make(chan struct{}) // (the fill's lists are not the first list's)
				src := f.source(t, ns)
				src.Start(context.Background())
				waitSource(t, src, "synced table", func() bool { return src.State().Phase == Synced && src.Len() == pods })
				at := wholeQueries(f)
				f.mu.Lock()
				defer f.mu.Unlock()
				for _, q := range f.queries {
					if q.Has("continue") {
						t.Fatalf("the first list asked for a continue page: %v", q)
					}
				}
				want := 0
				if pods > firstPageRows {
					want = 1
					if ns == "" {
						want = 2 // (a pair)
					}
				}
				if len(at) != want {
					t.Fatalf("%d requests for the whole list, want %d", len(at), want)
				}
				for _, i := range at {
					if q := f.queries[i]; q.Get("resourceVersion") != head {
						t.Errorf("whole list asked for with resourceVersion %q, want the first page's %q", q.Get("resourceVersion"), head)
					}
				}
				if joined := src.Pulse().FirstList.JoinedPages; ns == "" && want > 0 && joined != 1 {
					t.Errorf("%d joined pages, want 1 (the whole list as a pair)", joined)
				}
			})
		}
	}
}

// TestSourceFirstListWholeReplacesFirstPage: the whole list, newer than the first page, replaces it: a pod of
// the first page deleted in between leaves the table, one created in between joins it, and the rows are the
// server's.
func TestSourceFirstListWholeReplacesFirstPage(t *testing.T) {
	for _, ns := range []string{"a", ""} {
		t.Run("namespace="+ns, func(t *testing.T) {
			f := newFakeAPI(t)
			fakePods(f, "a", 600)
			f.pageGate = make(chan struct{})
			src := f.source(t, ns)
			src.Start(context.Background())
			waitSource(t, src, "first page", func() bool { return src.Len() == firstPageRows })
			f.mu.Lock()
			delete(f.pods, "a/p-007")
			f.mu.Unlock()
			f.set("a/p-000-new", "Pending", map[string]string{"app": "x"}, false)
			f.set("a/p-008", "Failed", map[string]string{"app": "x"}, false)
			close(f.pageGate)
			waitSource(t, src, "synced table", func() bool { return src.State().Phase == Synced && src.Len() == 600 })
			if len(wholeQueries(f)) == 0 {
				t.Fatal("the whole list was never asked for")
			}
			if r, ok := src.Row("a/p-007"); ok {
				t.Errorf("a pod deleted after the first page is still shown: %+v", r)
			}
			if _, ok := src.Row("a/p-000-new"); !ok {
				t.Errorf("a pod created after the first page is not shown")
			}
			if r, ok := src.Row("a/p-008"); !ok || r.Cells[len(r.Cells)-2] != "Failed" { // (NAME, STATUS, AGE; all namespaces: NAMESPACE first)
				t.Errorf("a pod changed after the first page shows %v, want status Failed", r.Cells)
			}
			if r, _ := src.Row("a/p-000-new"); ns == "" && r.UID != "uid-p-000-new" {
				t.Errorf("the new pod's row has UID %q", r.UID)
			}
		})
	}
}

// TestSourceWholePairOfTwoVersions: when the server answers the whole list's two halves at different
// resourceVersions, no row is joined to metadata of another snapshot: the rest is read in pages from the first
// page's continue token (as pairs again, which that token pins to one snapshot), and every row carries its
// own metadata.
func TestSourceWholePairOfTwoVersions(t *testing.T) {
	f := newFakeAPI(t)
	fillFakePods(f, "a", 600)
	f.skewWholeMetadata = true
	src := f.source(t, "")
	src.Start(context.Background())
	waitSource(t, src, "synced table", func() bool { return src.State().Phase == Synced && src.Len() == 600 })
	if ok, why := filledOwnMetadata(src); !ok {
		t.Fatal(why)
	}
	at := wholeQueries(f)
	if len(at) == 0 {
		t.Fatal("the whole list was never asked for")
	}
	resumed := 0
	f.mu.Lock()
	for _, q := range f.queries[at[len(at)-1]+1:] {
		if q.Get("continue") == "p-249" { // the first page's last name
			resumed++
		}
	}
	f.mu.Unlock()
	if resumed != 2 {
		t.Errorf("%d requests from the first page's token after the refused pair, want a pair", resumed)
	}
	if got := src.Pulse().FirstList.JoinedPages; got != 1 {
		t.Errorf("%d joined pages, want 1 (the refused pair not counted, the resumed pair joined)", got)
	}
}

// TestDecodeRowsCheck: decodeRows calls check with the list metadata before any row, and its error ends the
// decoding; rows before the metadata, or no metadata at all, are errors when a check is asked for.
func TestDecodeRowsCheck(t *testing.T) {
	cols := `"columnDefinitions":[{"name":"Name","type":"string","format":"name"}]`
	rows := `"rows":[{"cells":["p-1"]}]`
	refuse := func(m wireMeta) error {
		if m.ResourceVersion != "7" {
			return fmt.Errorf("%w: %s", errPairVersions, m.ResourceVersion)
		}
		return nil
	}
	for _, tt := range []struct {
		name, body string
		rows       int
		err        string
	}{
		{"checked", `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"7"},` + cols + `,` + rows + `}`, 1, ""},
		{"refused", `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"8"},` + cols + `,` + rows + `}`, 0, "different resourceVersions: 8"},
		{"rows first", `{"kind":"Table","apiVersion":"meta.k8s.io/v1",` + cols + `,` + rows + `,"metadata":{"resourceVersion":"7"}}`, 0, "rows before the list metadata"},
		{"no metadata", `{"kind":"Table","apiVersion":"meta.k8s.io/v1",` + cols + `}`, 0, "different resourceVersions: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n := 0
			_, _, err := decodeRows(strings.NewReader(tt.body), newConverter(false, nil),
				decodeOptions{check: refuse, onRow: func(*rowObject) { n++ }})
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("error %v, want %q", err, tt.err)
			}
			if n != tt.rows {
				t.Errorf("%d rows passed on, want %d", n, tt.rows)
			}
		})
	}
}
