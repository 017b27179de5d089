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

// TestSettledAfterPodResources: a pods table with metrics settles again once its pods' requests and limits
// have been listed (that list's garbage is given back too).
func TestSettledAfterPodResources(t *testing.T) {
	var calls atomic.Int32
	resources := make(chan struct{})
	h := start(t, 160, 30, func(o *Options) {
		c := o.Cluster.(*fakeCluster)
		withMetrics(c)
		c.metrics.resourcesSynced = resources
		o.Resource = "pods"
		o.Settled = func() { calls.Add(1) }
	})
	h.until("settled once the table is listed", func() bool { return calls.Load() == 1 })
	h.until("the watch of the pods' resources", func() bool {
		h.cluster.mu.Lock()
		defer h.cluster.mu.Unlock()
		return h.cluster.metrics.watches == 1
	})
	close(resources)
	h.until("settled again once the resources are listed", func() bool { return calls.Load() == 2 })
}

// TestSettleCoalesces: a settle asked for while one runs makes it run once more, never two at once.
func TestSettleCoalesces(t *testing.T) {
	release, entered := make(chan struct{}), make(chan struct{}, 3)
	var running, most, calls atomic.Int32
	a := &App{session: &session{opts: Options{Settled: func() {
		most.Store(max(most.Load(), running.Add(1)))
		calls.Add(1)
		entered <- struct{}{}
		<-release
		running.Add(-1)
	}}}}
	done := make(chan struct{})
	go func() { a.Settle(); close(done) }()
	<-entered
	a.Settle() // both return at once: the running call will run again
	a.Settle()
	close(release)
	<-done
	if calls.Load() != 2 || most.Load() != 1 {
		t.Fatalf("%d calls, at most %d at once; want 2 calls, one at a time", calls.Load(), most.Load())
	}
}

// TestSettledAfterTheHealthColumn: the HEALTH column settles once its list is in (its decoding's garbage is
// given back too), and not again for its later changes.
func TestSettledAfterTheHealthColumn(t *testing.T) {
	var calls atomic.Int32
	h := start(t, 160, 30, func(o *Options) {
		o.Resource = "pods"
		healthPods(o)
		o.Settled = func() { calls.Add(1) }
	})
	h.until("settled once the table is listed", func() bool { return calls.Load() == 1 })
	h.typeText("H")
	h.waitGone("health: listing")
	h.until("settled again once the column is listed", func() bool { return calls.Load() == 2 })
	h.typeText("H")
	h.typeText("H")
	h.waitGone("health: listing")
	h.until("settled once more for the column turned on again", func() bool { return calls.Load() == 3 })
}
