package watch

import (
	"slices"
	"testing"
)

// TestSnapshotSortsByExtraCells: a query naming an extra column orders rows by the view's cells for their
// keys (quantities by value, integers as numbers, rows without a value last), in both directions; a new
// Extra version re-sorts, later changes are patched in that order, and queries on the server's columns
// keep their cached snapshot whatever the Extra.
func TestSnapshotSortsByExtraCells(t *testing.T) {
	cols := []Column{{Name: "NAME", Type: "string", Format: "name"}, {Name: "STATUS", Type: "string"}}
	extraCols := []Column{{Name: "CPU", Type: "quantity"}, {Name: "MEM", Type: "quantity"},
		{Name: "%CPU/R", Type: "integer"}}
	row := func(name string) *Row {
		return &Row{Key: "ns/" + name, Namespace: "ns", Name: name, ResourceVersion: "1",
			Cells: []string{name, "Running"}}
	}
	store := newRowStore()
	for _, n := range []string{"a", "b", "c", "d"} {
		store.put(row(n))
	}
	v1 := &Extra{Columns: extraCols, Version: 1, Cells: map[string][]string{
		"ns/a": {"250m", "64Mi", "n/a"},
		"ns/b": {"1", "1Gi", "120"},
		"ns/c": {"5m", "900Mi", "7"},
		// ns/d has no metrics
	}}
	v2 := &Extra{Columns: extraCols, Version: 2, Cells: map[string][]string{
		"ns/a": {"2", "64Mi", "n/a"}, "ns/b": {"1m", "1Gi", "120"}, "ns/c": {"5m", "900Mi", "7"},
		"ns/d": {"40m", "1Mi", "9"}, "ns/e": {"3m", "2Mi", "1"},
	}}
	var snaps snapshotter
	names := func(q Query) []string {
		var out []string
		for _, r := range snaps.snapshot(store, q, cols, 1).Rows {
			out = append(out, r.Name)
		}
		return out
	}
	tests := []struct {
		name string
		q    Query
		want []string
	}{
		{"CPU ascending", Query{SortColumn: 2, Extra: v1}, []string{"c", "a", "b", "d"}},
		{"CPU descending", Query{SortColumn: 2, Descending: true, Extra: v1}, []string{"d", "b", "a", "c"}},
		{"MEM ascending", Query{SortColumn: 3, Extra: v1}, []string{"a", "c", "b", "d"}},
		{"percent ascending, text after numbers", Query{SortColumn: 4, Extra: v1}, []string{"c", "b", "d", "a"}},
		{"new cells re-sort", Query{SortColumn: 2, Extra: v2}, []string{"b", "c", "d", "a"}},
		{"a column past the extra ones: natural order", Query{SortColumn: 9, Extra: v2}, []string{"a", "b", "c", "d"}},
		{"no Extra: natural order", Query{SortColumn: 2}, []string{"a", "b", "c", "d"}},
	}
	for _, tt := range tests {
		if got := names(tt.q); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}

	// A row added while sorted by an extra column is patched into place.
	store.put(row("e"))
	if got, want := names(Query{SortColumn: 2, Extra: v2}), []string{"b", "e", "c", "d", "a"}; !slices.Equal(got, want) {
		t.Errorf("after adding e: %v, want %v", got, want)
	}
	full := sortRows(store.since(0, false).all, newRowOrder(Query{SortColumn: 2, Extra: v2}, cols))
	if got := snaps.snapshot(store, Query{SortColumn: 2, Extra: v2}, cols, 1).Rows; !slices.Equal(got, full) {
		t.Error("the patched snapshot differs from a full sort")
	}

	// Sorting by a server column does not depend on the Extra: the cached rows are reused as they are.
	byStatus := snaps.snapshot(store, Query{SortColumn: 1, Extra: v1}, cols, 1).Rows
	again := snaps.snapshot(store, Query{SortColumn: 1, Extra: v2}, cols, 1).Rows
	if len(again) == 0 || &byStatus[0] != &again[0] {
		t.Error("a new Extra version rebuilt the snapshot of a server column")
	}
	for _, c := range snaps.caches {
		if c.extra != 0 && c.extra < 2 {
			t.Errorf("a cache sorted by the old extra cells (version %d) is kept", c.extra)
		}
	}
}

// TestClassifyQuantity: quantity cells order by value whatever their form; others sort after them as text.
func TestClassifyQuantity(t *testing.T) {
	in := []string{"0m", "5m", "250m", "1", "1500m", "2", "1Mi", "1025Ki", "2Mi", "1Gi", "1100Mi", "", "<unknown>", "n/a"}
	for i := 1; i < len(in); i++ {
		if c := classify(in[i-1], "quantity").compare(classify(in[i], "quantity")); c >= 0 {
			t.Errorf("%q does not order before %q (%d)", in[i-1], in[i], c)
		}
	}
	if c := classify("1024Mi", "quantity").compare(classify("1Gi", "quantity")); c != 0 {
		t.Errorf("1024Mi and 1Gi compare %d, want 0", c)
	}
}

// TestExtraMore: an Extra whose More holds further columns reads and sorts each column from its own part.
func TestExtraMore(t *testing.T) {
	cols := []Column{{Name: "NAME", Type: "string", Format: "name"}}
	store := newRowStore()
	for _, n := range []string{"a", "b", "c"} {
		store.put(&Row{Key: "ns/" + n, Namespace: "ns", Name: n, ResourceVersion: "1", Cells: []string{n}})
	}
	metrics := &Extra{Columns: []Column{{Name: "CPU", Type: "quantity"}}, Version: 7,
		Cells: map[string][]string{"ns/a": {"5m"}, "ns/b": {"1m"}, "ns/c": {"3m"}}}
	joined := &Extra{Columns: []Column{{Name: "HEALTH", Type: "string"}}, Version: 1, More: metrics,
		Cells: map[string][]string{"ns/a": {"InProgress"}, "ns/b": {"Terminating"}, "ns/c": {"Current"}}}
	if got := joined.AllColumns(); len(got) != 2 || got[0].Name != "HEALTH" || got[1].Name != "CPU" {
		t.Fatalf("AllColumns %v", got)
	}
	if joined.Cell("ns/a", 0) != "InProgress" || joined.Cell("ns/a", 1) != "5m" || joined.Cell("ns/a", 2) != "" {
		t.Errorf("cells of ns/a: %q %q %q", joined.Cell("ns/a", 0), joined.Cell("ns/a", 1), joined.Cell("ns/a", 2))
	}
	var snaps snapshotter
	names := func(q Query) []string {
		var out []string
		for _, r := range snaps.snapshot(store, q, cols, 1).Rows {
			out = append(out, r.Name)
		}
		return out
	}
	if got := names(Query{SortColumn: 1, Extra: joined}); !slices.Equal(got, []string{"c", "a", "b"}) {
		t.Errorf("by HEALTH: %v", got)
	}
	if got := names(Query{SortColumn: 2, Extra: joined}); !slices.Equal(got, []string{"b", "c", "a"}) {
		t.Errorf("by CPU (in More): %v", got)
	}
}
