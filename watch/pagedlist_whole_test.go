package watch

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// firstListQueries returns the queries of f's list requests for the first list (the fill's, which ask for
// object metadata in a one-namespace view, and the metadata lists of pairs are left out).
func firstListQueries(f *fakeAPI, namespaced bool) []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	var qs []url.Values
	for _, q := range f.queries {
		if namespaced && q.Get("includeObject") != string(metav1.IncludeNone) {
			continue
		}
		if !namespaced && q.Get("includeObject") == "" {
			continue
		}
		qs = append(qs, q)
	}
	return qs
}

// TestSourceFirstListWhole: after its first page, the first list is asked for whole, not older than that page
// (its resourceVersion, resourceVersionMatch=NotOlderThan, no limit, no continue token), which a server
// answers from its watch cache; no page is asked for with the continue token.
func TestSourceFirstListWhole(t *testing.T) {
	for _, ns := range []string{"a", ""} {
		t.Run("namespace="+ns, func(t *testing.T) {
			f := newFakeAPI(t)
			fakePods(f, "a", 600)
			head := f.resourceVersion()
			f.fillGate = make(chan struct{}) // (the fill's lists are not the first list's)
			src := f.source(t, ns)
			src.Start(context.Background())
			waitSource(t, src, "synced table", func() bool { return src.State().Phase == Synced && src.Len() == 600 })
			qs := firstListQueries(f, ns != "")
			if len(qs) != 2 {
				t.Fatalf("%d requests for the first list, want 2: %v", len(qs), qs)
			}
			if got := qs[0].Get("limit"); got != fmt.Sprint(firstPageRows) || qs[0].Get("resourceVersion") != "" {
				t.Errorf("first page asked for with %v, want limit=%d and no resourceVersion", qs[0], firstPageRows)
			}
			want := url.Values{"resourceVersion": {head}, "resourceVersionMatch": {"NotOlderThan"}}
			for k, v := range want {
				if qs[1].Get(k) != v[0] {
					t.Errorf("whole list asked for with %s=%q, want %q (%v)", k, qs[1].Get(k), v[0], qs[1])
				}
			}
			if qs[1].Has("limit") || qs[1].Has("continue") {
				t.Errorf("whole list asked for with a limit or a continue token: %v", qs[1])
			}
			if ns == "" && src.Pulse().FirstList.JoinedPages != 1 {
				t.Errorf("%d joined pages, want 1 (the whole list as a pair)", src.Pulse().FirstList.JoinedPages)
			}
		})
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
// resourceVersions, no row is joined to metadata of another snapshot: the list goes on in pages from the
// first page's continue token (as pairs again, which that token pins to one snapshot), and every row
// carries its own metadata.
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
	var continued []string
	f.mu.Lock()
	for _, q := range f.queries {
		if c := q.Get("continue"); c != "" {
			continued = append(continued, q.Get("includeObject")+":"+c)
		}
	}
	f.mu.Unlock()
	// The token is the first page's last name: p-249; the pair's halves are None and "".
	if strings.Join(continued, ",") != "None:p-249,:p-249" && strings.Join(continued, ",") != ":p-249,None:p-249" {
		t.Errorf("pages after the refused pair: %v, want the pair from the first page's token", continued)
	}
	if got := src.Pulse().FirstList.JoinedPages; got != 1 {
		t.Errorf("%d joined pages, want 1 (the refused pair not counted, the continued pair joined)", got)
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
