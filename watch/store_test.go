package watch

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func row(key, rv string, cells ...string) *Row {
	return &Row{Key: key, Name: key, ResourceVersion: rv, Cells: cells}
}

func TestChangeFeed(t *testing.T) {
	type op struct {
		put    *Row
		remove string
	}
	tests := []struct {
		name    string
		before  []op // applied, then drained
		ops     []op
		added   []string
		updated []string
		deleted []string
	}{
		{name: "add", ops: []op{{put: row("a", "1")}}, added: []string{"a"}},
		{name: "add then update stays added", ops: []op{{put: row("a", "1")}, {put: row("a", "2")}}, added: []string{"a"}},
		{name: "add then delete is nothing", ops: []op{{put: row("a", "1")}, {remove: "a"}}},
		{name: "update", before: []op{{put: row("a", "1")}}, ops: []op{{put: row("a", "2")}}, updated: []string{"a"}},
		{name: "same resourceVersion is no change", before: []op{{put: row("a", "1")}}, ops: []op{{put: row("a", "1")}}},
		{name: "update then delete", before: []op{{put: row("a", "1")}},
			ops: []op{{put: row("a", "2")}, {remove: "a"}}, deleted: []string{"a"}},
		{name: "delete then re-create is an update", before: []op{{put: row("a", "1")}},
			ops: []op{{remove: "a"}, {put: row("a", "5")}}, updated: []string{"a"}},
		{name: "unknown delete", ops: []op{{remove: "zz"}}},
		{name: "several sorted", ops: []op{{put: row("c", "1")}, {put: row("a", "1")}, {put: row("b", "1")}},
			added: []string{"a", "b", "c"}},
	}
	apply := func(s *rowStore, ops []op) {
		for _, o := range ops {
			if o.put != nil {
				s.put(o.put)
			} else {
				s.remove(o.remove, nil)
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newRowStore()
			apply(s, tt.before)
			s.drain()
			apply(s, tt.ops)
			cs := s.drain()
			var deleted []string
			for _, r := range cs.Deleted {
				deleted = append(deleted, r.Key)
			}
			if !reflect.DeepEqual(cs.Added, tt.added) || !reflect.DeepEqual(cs.Updated, tt.updated) ||
				!reflect.DeepEqual(deleted, tt.deleted) {
				t.Errorf("got added %v updated %v deleted %v, want %v %v %v",
					cs.Added, cs.Updated, deleted, tt.added, tt.updated, tt.deleted)
			}
			if !s.drain().Empty() {
				t.Error("second drain not empty")
			}
		})
	}
}

func TestDeletedKeepsLastRow(t *testing.T) {
	s := newRowStore()
	s.put(row("a", "1", "old"))
	s.drain()
	last := row("a", "2", "final")
	s.remove("a", last)
	if cs := s.drain(); len(cs.Deleted) != 1 || cs.Deleted[0] != last {
		t.Fatalf("deleted %+v", cs.Deleted)
	}
}

// TestSnapshotPatchEqualsRebuild applies random changes and checks each patched snapshot against a full sort.
func TestSnapshotPatchEqualsRebuild(t *testing.T) {
	filters := []string{"", "Running", "-l tier=web", "pod-1"}
	for _, ft := range filters {
		f, err := ParseFilter(ft)
		if err != nil {
			t.Fatal(err)
		}
		for col := -1; col < len(testColumns); col++ {
			for _, desc := range []bool{false, true} {
				q := Query{SortColumn: col, Descending: desc, Filter: f}
				checkPatches(t, q)
			}
		}
	}
}

func checkPatches(t *testing.T, q Query) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, uint64(q.SortColumn+10)))
	store := newRowStore()
	var snaps snapshotter
	pool := testRows(400)
	for _, r := range pool[:200] {
		store.put(r)
	}
	prev := snaps.snapshot(store, q, testColumns, 1)
	prevRows := slices.Clone(prev.Rows)
	for round := 0; round < 30; round++ {
		for k := rng.IntN(20); k >= 0; k-- {
			r := pool[rng.IntN(len(pool))]
			switch rng.IntN(3) {
			case 0:
				store.remove(r.Key, nil)
			case 1:
				store.put(r)
			default: // an update with new cells
				c := *r
				c.ResourceVersion = fmt.Sprint(rng.Int())
				c.Cells = slices.Clone(r.Cells)
				c.Cells[2] = []string{"Running", "Pending", "Failed"}[rng.IntN(3)]
				c.Cells[3] = fmt.Sprint(rng.IntN(50))
				store.put(&c)
			}
		}
		got := snaps.snapshot(store, q, testColumns, 1)
		all := store.since(0, false).all
		want := sortRows(all, newRowOrder(q, testColumns))
		var filtered []*Row
		for _, r := range want {
			if q.Filter.Match(r) {
				filtered = append(filtered, r)
			}
		}
		if got.Total != len(all) || !slices.Equal(got.Rows, filtered) {
			t.Fatalf("query %+v round %d: patched snapshot differs from a full sort (%d/%d rows vs %d/%d)",
				q, round, len(got.Rows), got.Total, len(filtered), len(all))
		}
		if !slices.Equal(prev.Rows, prevRows) {
			t.Fatalf("query %+v round %d: a published snapshot changed", q, round)
		}
		prev, prevRows = got, slices.Clone(got.Rows)
	}
}

// TestStoreConcurrent writes rows while other goroutines take snapshots and drain changes (run with -race).
func TestStoreConcurrent(t *testing.T) {
	store := newRowStore()
	var snaps snapshotter
	rows := testRows(2000)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i, r := range rows {
			store.put(r)
			if i%3 == 0 {
				store.remove(rows[i/2].Key, nil)
			}
		}
	}()
	f, _ := ParseFilter("Running")
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		for _, q := range []Query{{SortColumn: 0}, {SortColumn: 4, Descending: true, Filter: f}} {
			s := snaps.snapshot(store, q, testColumns, 1)
			if !slices.IsSortedFunc(s.Rows, newRowOrder(q, testColumns).compare) {
				t.Fatal("snapshot not sorted")
			}
		}
		store.drain()
	}
	if got := snaps.snapshot(store, Query{SortColumn: -1}, testColumns, 1); got.Total != store.len() {
		t.Fatalf("final snapshot %d rows, store %d", got.Total, store.len())
	}
}

func TestRowObjectMeta(t *testing.T) {
	r := &Row{Key: "ns/a", Namespace: "ns", Name: "a", UID: "u", ResourceVersion: "3", Labels: map[string]string{"x": "y"}}
	o := newRowObject(r, nil)
	if o.GetName() != "a" || o.GetNamespace() != "ns" || o.GetUID() != "u" || o.GetResourceVersion() != "3" ||
		o.GetLabels()["x"] != "y" {
		t.Fatalf("getters: %+v", o)
	}
	o.SetName("b")
	if o.get() == r || r.Name != "a" || o.get().Key != "ns/b" {
		t.Fatalf("SetName must copy the row: old %+v new %+v", r, o.get())
	}
	c := o.DeepCopyObject().(*rowObject)
	c.SetResourceVersion("9")
	if o.GetResourceVersion() != "3" || c.GetResourceVersion() != "9" {
		t.Fatal("DeepCopyObject shares state")
	}
}

// TestSnapshotNewFilterReusesOrder: typing a filter reuses the sorted rows of the same order; every snapshot
// still equals a full sort and filter.
func TestSnapshotNewFilterReusesOrder(t *testing.T) {
	store := newRowStore()
	var snaps snapshotter
	pool := testRows(300)
	for _, r := range pool[:150] {
		store.put(r)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	texts := []string{"", "r", "ru", "run", "runn", "-l tier=db", "pod-1", ""}
	for round, text := range texts {
		f, err := ParseFilter(text)
		if err != nil {
			t.Fatal(err)
		}
		q := Query{SortColumn: 3, Descending: true, Filter: f}
		for k := 0; k < 5; k++ {
			r := pool[rng.IntN(len(pool))]
			if rng.IntN(2) == 0 {
				store.remove(r.Key, nil)
			} else {
				store.put(r)
			}
		}
		got := snaps.snapshot(store, q, testColumns, 1)
		var want []*Row
		for _, r := range sortRows(store.since(0, false).all, newRowOrder(q, testColumns)) {
			if f.Match(r) {
				want = append(want, r)
			}
		}
		if !slices.Equal(got.Rows, want) || got.Total != store.len() {
			t.Fatalf("round %d filter %q: %d rows, want %d", round, text, len(got.Rows), len(want))
		}
	}
}
