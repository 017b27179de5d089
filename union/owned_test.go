package union

import (
	"context"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"kscope/tree"
	"kscope/tree/treetest"
	"kscope/watch"
)

// job is a job object in shop owned by the owners' UIDs.
func job(name string, owners ...types.UID) tree.Object {
	return treetest.Owned("shop", name, owners...)
}

// TestOwnedKeepsTheOwnersRows: only the rows whose objects name the owner among their ownerReferences
// are kept (Total counts them before the table's filter); a change of the owners shows at once, with a
// notice; starting and stopping start and stop both sources.
func TestOwnedKeepsTheOwnersRows(t *testing.T) {
	row := func(name string) *watch.Row {
		return &watch.Row{Key: "shop/" + name, Namespace: "shop", Name: name, Cells: []string{name}}
	}
	rows := watch.NewStaticSource(watch.Spec{Namespace: "shop", Namespaced: true}, []watch.Column{{Name: "NAME", Format: "name"}},
		row("nightly-1"), row("nightly-2"), row("manual"), row("other-1"))
	owners := treetest.New(job("nightly-1", "uid-nightly"), job("nightly-2", "uid-other", "uid-nightly"), job("manual"),
		job("other-1", "uid-other"), job("gone", "uid-nightly")) // (gone: listed there, not in the rows yet)
	src := NewOwned(nil, rows, owners, "uid-nightly")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src.Start(ctx)

	names := func(s watch.Snapshot) []string {
		var out []string
		for _, r := range s.Rows {
			out = append(out, r.Name)
		}
		return out
	}
	all := watch.Query{SortColumn: -1}
	if got := src.Snapshot(all); !slices.Equal(names(got), []string{"nightly-1", "nightly-2"}) || got.Total != 2 {
		t.Errorf("rows %q of %d, want nightly-1 and nightly-2 of 2", names(got), got.Total)
	}
	f, _ := watch.ParseFilter("-2")
	if got := src.Snapshot(watch.Query{SortColumn: -1, Filter: f}); !slices.Equal(names(got), []string{"nightly-2"}) || got.Total != 2 {
		t.Errorf("filtered: rows %q of %d, want nightly-2 of 2", names(got), got.Total)
	}

	owners.Set(job("nightly-1", "uid-nightly"), job("manual", "uid-nightly")) // adopted; nightly-2 released
	select {
	case <-src.Notify():
	case <-time.After(5 * time.Second):
		t.Fatal("no notice of the owners' change")
	}
	if got := src.Snapshot(all); !slices.Equal(names(got), []string{"manual", "nightly-1"}) {
		t.Errorf("after the change: rows %q, want manual and nightly-1", names(got))
	}
	src.Stop()
	if !owners.Started() || !owners.Stopped() || !rows.Started() || !rows.Stopped() {
		t.Errorf("owners started %v stopped %v, rows started %v stopped %v", owners.Started(), owners.Stopped(), rows.Started(), rows.Stopped())
	}
}
