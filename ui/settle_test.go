package ui

import (
	"sync/atomic"
	"testing"

	"kscope/watch"
)

// TestSettledAfterTheList: Options.Settled is called once a table's first list is complete, not while it is
// still listing, and once for each table that settles.
func TestSettledAfterTheList(t *testing.T) {
	var calls atomic.Int32
	h := start(t, 160, 30, func(o *Options) {
		o.Cluster.(*fakeCluster).firstState = &watch.State{Phase: watch.Listing, Expected: 4}
		o.Resource = "pods"
		o.Settled = func() { calls.Add(1) }
	})
	src := h.cluster.lastSource()
	h.refresh()
	h.sync()
	if n := calls.Load(); n != 0 {
		t.Fatalf("settled %d times while the table was listing", n)
	}
	src.SetState(watch.State{Phase: watch.Synced})
	h.until("settled once the table is listed", func() bool { return calls.Load() == 1 })
	h.cluster.firstState = nil
	h.command("deployments")
	h.until("settled again for the deployments table", func() bool { return calls.Load() == 2 })
}
