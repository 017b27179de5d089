package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// podCounts records the pod counts the server reported while a launch was timed: a pod deleted meanwhile
// (the devcluster's fake nodes may flap NotReady, and the taint manager evicts) must not make a complete
// table look incomplete.
type podCounts struct {
	mu     sync.Mutex
	counts map[int]bool
	done   chan struct{}
}

// serverCounts samples the pod count of namespace ("": the whole cluster) now and then every 500 ms until
// stop; expect (if positive) counts as seen from the start.
func (b *bench) serverCounts(namespace string, expect int) *podCounts {
	return sampleCounts(func() (int, error) { return countPods(context.Background(), b.client, namespace) }, expect)
}

// sampleCounts records what count returns now and then every 500 ms until stop; expect (if positive) counts
// as seen from the start.
func sampleCounts(count func() (int, error), expect int) *podCounts {
	p := &podCounts{counts: map[int]bool{}, done: make(chan struct{})}
	if expect > 0 {
		p.counts[expect] = true
	}
	sample := func() {
		if n, err := count(); err == nil {
			p.mu.Lock()
			p.counts[n] = true
			p.mu.Unlock()
		}
	}
	sample()
	go func() {
		for {
			select {
			case <-p.done:
				return
			case <-time.After(500 * time.Millisecond):
				sample()
			}
		}
	}()
	return p
}

func (p *podCounts) seen(n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts[n]
}

// largest returns the largest count seen (the cluster's pods at launch, for the report).
func (p *podCounts) largest() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for c := range p.counts {
		n = max(n, c)
	}
	return n
}

func (p *podCounts) stop() { close(p.done) }

// launchWatch follows the screens of one launch: when pod rows first showed and whether the screen then
// said the list was still arriving, and whether the table is complete (check).
type launchWatch struct {
	check   func(sc []string) (complete, listing bool)
	first   time.Duration // launch → the first capture with a pod row (0: none yet)
	listing bool          // that capture said the list was still arriving
}

// complete records the first screen of rows and tells whether sc is the complete table: pod rows shown and
// check saying it is complete.
func (w *launchWatch) complete(sc []string, at time.Duration) bool {
	complete, listing := w.check(sc)
	rows := len(visiblePods(sc)) > 0
	if rows && w.first == 0 {
		w.first, w.listing = at, listing
	}
	return complete && rows
}

// titleCheck is the complete check of a pods table (kscope's or k9s's): a title whose count is one the
// server reported (seen), not saying the list is still arriving.
func titleCheck(seen func(count int) bool) func([]string) (complete, listing bool) {
	return func(sc []string) (bool, bool) {
		t, ok := titleOf(sc)
		return ok && !t.listing && seen(t.count), ok && t.listing
	}
}

// launch starts t (in all namespaces if all), times the first screen of rows and the complete table, then
// lets it settle and reads its memory. It returns the pid of the tool, or 0 when the launch failed (the
// failure is in s.Errors).
func (b *bench) launch(t tool, all bool, extra []string, s *Sample) int {
	ns, expect := b.namespace, b.pods
	if all {
		ns, expect = "", 0
	}
	counts := b.serverCounts(ns, expect)
	stopCounts := sync.OnceFunc(counts.stop) // sampling ends with the launch, before the RSS is read
	defer stopCounts()
	pid := b.open(t, t.command(all, extra...), titleCheck(counts.seen), s)
	stopCounts()
	if all {
		s.ClusterPods = counts.largest()
	}
	if pid == 0 {
		return 0
	}
	time.Sleep(settle)
	s.RSSMB, s.PeakRSSMB, _ = memoryMB(pid)
	return pid
}

// measureAllNamespaces runs one session of t in all namespaces: launch → first screen of rows and → the
// complete table (the title count equal to the cluster's pod count), and the RSS settled.
func (b *bench) measureAllNamespaces(t tool) (s Sample) {
	s.LoadAvg = loadAvg()
	defer b.quit(t)
	b.launch(t, true, nil, &s)
	return s
}

// failf records a failed phase of t's run in s (the later phases still run when they can).
func (b *bench) failf(s *Sample, t tool, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	b.logf("%s: %s", t.name, msg)
	s.Errors = append(s.Errors, msg)
}
