package watch

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// filledOwnMetadata tells whether every row of src carries its own object's metadata (fakePods with labels
// "n": its number, as fillFakePods sets them).
func filledOwnMetadata(src *Source) (bool, string) {
	for _, r := range src.Snapshot(Query{SortColumn: -1}).Rows {
		i, _ := strconv.Atoi(strings.TrimPrefix(r.Name, "p-"))
		if r.UID != types.UID("uid-"+r.Name) || r.Labels["n"] != strconv.Itoa(i) || r.ResourceVersion == "" {
			return false, fmt.Sprintf("row %s has UID %q, labels %v, resourceVersion %q", r.Name, r.UID, r.Labels, r.ResourceVersion)
		}
	}
	return true, ""
}

// fillFakePods creates n pods p-000… in namespace ns, each labelled with its number.
func fillFakePods(f *fakeAPI, ns string, n int) {
	for i := range n {
		f.set(fmt.Sprintf("%s/p-%03d", ns, i), "Running", map[string]string{"n": strconv.Itoa(i)}, false)
	}
}

// TestFillInPairedPages: the metadata fill of a one-namespace view lists in pages, its first page as one
// Table with metadata and the later ones as pairs (rows without objects and a protobuf metadata list from the
// same continue token), joined; every row ends with its own object's metadata.
func TestFillInPairedPages(t *testing.T) {
	f := newFakeAPI(t)
	fillFakePods(f, "a", 600)
	src := f.source(t, "a")
	src.Start(context.Background())
	waitSource(t, src, "filled table", func() bool {
		ok, _ := filledOwnMetadata(src)
		return src.State().Phase == Synced && src.Len() == 600 && ok
	})
	if ok, why := filledOwnMetadata(src); !ok {
		t.Fatal(why)
	}
	// The first list: two pages without objects (250, 350). The fill: 250 rows as a Table with metadata, then
	// the other 350 as a pair.
	for include, want := range map[metav1.IncludeObjectPolicy]int{metav1.IncludeNone: 3, metav1.IncludeMetadata: 1, "": 1} {
		if n := f.count(include); n != want {
			t.Errorf("%d lists with includeObject=%q, want %d", n, include, want)
		}
	}
	if p := src.Pulse(); p.FillJoinedPages != 1 || p.FillBytes == 0 {
		t.Errorf("the pulse counts %d joined fill pages and %d fill bytes, want 1 and more than 0", p.FillJoinedPages, p.FillBytes)
	}
}

// TestFillJoinMismatch: when a page of the fill and its metadata list do not match one to one, no row takes
// another's metadata: the page is asked for again as one Table with metadata.
func TestFillJoinMismatch(t *testing.T) {
	f := newFakeAPI(t)
	fillFakePods(f, "a", 600)
	f.misorderMetadata = true
	src := f.source(t, "a")
	src.Start(context.Background())
	waitSource(t, src, "filled table", func() bool {
		ok, _ := filledOwnMetadata(src)
		return src.State().Phase == Synced && src.Len() == 600 && ok
	})
	if n := f.count(metav1.IncludeMetadata); n != 2 {
		t.Errorf("%d Tables with metadata, want 2 (the fill's first page, and the refused page again)", n)
	}
	if n := src.Pulse().FillJoinedPages; n != 0 {
		t.Errorf("%d joined fill pages, want 0 (the misordered pair refused)", n)
	}
}
