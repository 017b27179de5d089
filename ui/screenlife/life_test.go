package screenlife_test

import (
	"context"
	"sync"
	"testing"

	"kscope/ui"
	"kscope/ui/navtest"
	"kscope/ui/screenlife"
)

// queueNav is a navtest.Nav whose Update queues fn for the test to run (drain), as the app's UI goroutine
// would come to it later; its context is its own, to end (quit), and its ticks' cancels are counted.
type queueNav struct {
	*navtest.Nav
	ctx  context.Context
	quit context.CancelFunc

	mu            sync.Mutex
	queued        []func()
	ticks, cancel int
}

func newQueueNav(t *testing.T) *queueNav {
	ctx, quit := context.WithCancel(context.Background())
	t.Cleanup(quit)
	return &queueNav{Nav: navtest.New(t, nil), ctx: ctx, quit: quit}
}

func (n *queueNav) Context() context.Context { return n.ctx }

func (n *queueNav) Update(fn func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.queued = append(n.queued, fn)
}

func (n *queueNav) EveryTickWhileOnTop(ui.Screen, func()) context.CancelFunc {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.ticks++
	return func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		n.cancel++
	}
}

// drain runs the functions queued so far, as the UI goroutine, and tells how many there were.
func (n *queueNav) drain() int {
	n.mu.Lock()
	queued := n.queued
	n.queued = nil
	n.mu.Unlock()
	for _, fn := range queued {
		n.UI(fn)
	}
	return len(queued)
}

func (n *queueNav) tickCounts() (ticks, cancelled int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.ticks, n.cancel
}

// TestLifeUpdateGuard: a callback runs on the UI goroutine only while the life lasts: not before Start, not
// once Stop (the screen's Close) or the navigator's end came first, whether it was queued before or after.
func TestLifeUpdateGuard(t *testing.T) {
	for _, tc := range []struct {
		name string
		// before runs before the update is asked for, between runs after it is queued and before the UI
		// goroutine comes to it.
		before, between func(l *screenlife.Life, n *queueNav)
		queued, ran     int
	}{
		{name: "live", before: start, queued: 1, ran: 1},
		{name: "not started", queued: 0, ran: 0},
		{name: "stopped before", before: func(l *screenlife.Life, n *queueNav) { start(l, n); l.Stop() }, queued: 0, ran: 0},
		{name: "stopped while queued", before: start, between: func(l *screenlife.Life, _ *queueNav) { l.Stop() },
			queued: 1, ran: 0},
		{name: "navigator ended while queued", before: start, between: func(_ *screenlife.Life, n *queueNav) { n.quit() },
			queued: 1, ran: 0},
		{name: "navigator ended before", before: func(l *screenlife.Life, n *queueNav) { start(l, n); n.quit() },
			queued: 0, ran: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newQueueNav(t)
			var l screenlife.Life
			if tc.before != nil {
				n.UI(func() { tc.before(&l, n) })
			}
			ran := 0
			l.Update(func() { ran++ })
			n.mu.Lock()
			queued := len(n.queued)
			n.mu.Unlock()
			if tc.between != nil {
				n.UI(func() { tc.between(&l, n) })
			}
			n.drain()
			if queued != tc.queued || ran != tc.ran {
				t.Errorf("queued %d, ran %d; want queued %d, ran %d", queued, ran, tc.queued, tc.ran)
			}
		})
	}
}

func start(l *screenlife.Life, n *queueNav) { l.Start(n, func(context.Context) {}) }

// TestUpdateWhile: the guard over a context of the screen's own (a logs view's range).
func TestUpdateWhile(t *testing.T) {
	n := newQueueNav(t)
	ctx, cancel := context.WithCancel(context.Background())
	ran := 0
	screenlife.UpdateWhile(n, ctx, func() { ran++ })
	cancel()
	screenlife.UpdateWhile(n, ctx, func() { ran++ })
	if queued := n.drain(); queued != 1 || ran != 0 {
		t.Errorf("queued %d, ran %d; want the first queued and dropped (its context ended), the second not queued",
			queued, ran)
	}
}

// TestLifeStart: the first Start runs start with a live context; a second one, or one after Stop, does
// nothing; Stop twice, or before Start, is harmless.
func TestLifeStart(t *testing.T) {
	for _, tc := range []struct {
		name    string
		steps   string // S: Start, X: Stop, in order
		results []bool // each Start's
		starts  int    // how many times start ran
		live    bool
	}{
		{name: "once", steps: "S", results: []bool{true}, starts: 1, live: true},
		{name: "twice", steps: "SS", results: []bool{true, false}, starts: 1, live: true},
		{name: "stopped", steps: "SX", results: []bool{true}, starts: 1},
		{name: "stopped twice", steps: "SXX", results: []bool{true}, starts: 1},
		{name: "started after stop", steps: "SXS", results: []bool{true, false}, starts: 1},
		{name: "stopped before start", steps: "XS", results: []bool{false}, starts: 0},
		{name: "never started", steps: "", starts: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newQueueNav(t)
			var l screenlife.Life
			var results []bool
			starts := 0
			var ctxs []context.Context
			n.UI(func() {
				for _, step := range tc.steps {
					switch step {
					case 'S':
						results = append(results, l.Start(n, func(ctx context.Context) {
							starts++
							if ctx.Err() != nil {
								t.Errorf("start's context has ended")
							}
							ctxs = append(ctxs, ctx)
						}))
					case 'X':
						l.Stop()
					}
				}
			})
			if !equalBools(results, tc.results) || starts != tc.starts {
				t.Errorf("Start returned %v, start ran %d times; want %v, %d", results, starts, tc.results, tc.starts)
			}
			if l.Live() != tc.live || (l.Context().Err() == nil) != tc.live {
				t.Errorf("Live %v, context's error %v; want live %v", l.Live(), l.Context().Err(), tc.live)
			}
			if l.Started() != (tc.starts > 0) {
				t.Errorf("Started %v; want %v", l.Started(), tc.starts > 0)
			}
			for _, ctx := range ctxs {
				if ctx != l.Context() {
					t.Errorf("start's context is not the life's")
				}
			}
		})
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLifeGoAndTick: Go runs on a supervised goroutine with the life's context, which Stop ends; before
// Start and after Stop it starts nothing; Stop cancels the ticks, once.
func TestLifeGoAndTick(t *testing.T) {
	n := newQueueNav(t)
	var l screenlife.Life
	n.UI(func() { l.Go(func(context.Context) { t.Error("Go ran before Start") }) })
	ended := make(chan struct{})
	n.UI(func() {
		l.Start(n, func(ctx context.Context) {
			l.Go(func(got context.Context) {
				if got != ctx {
					t.Error("Go's context is not the life's")
				}
				<-got.Done()
				close(ended)
			})
			l.Tick(nil, func() {})
			l.Tick(nil, func() {})
		})
	})
	if ticks, cancelled := n.tickCounts(); ticks != 2 || cancelled != 0 {
		t.Fatalf("%d ticks, %d cancelled before Stop; want 2, 0", ticks, cancelled)
	}
	n.UI(func() { l.Stop(); l.Stop() })
	<-ended
	n.UI(func() {
		l.Go(func(context.Context) { t.Error("Go ran after Stop") })
		l.Tick(nil, func() {})
	})
	n.Wait()
	if ticks, cancelled := n.tickCounts(); ticks != 2 || cancelled != 2 {
		t.Errorf("%d ticks, %d cancelled after Stop; want 2, 2", ticks, cancelled)
	}
}

// TestLifeRace: goroutines hand callbacks back while the UI goroutine stops the life; under -race, and no
// callback runs after Stop.
func TestLifeRace(t *testing.T) {
	n := navtest.New(t, nil)
	var l screenlife.Life
	var stopped bool // UI goroutine
	n.UI(func() {
		l.Start(n, func(context.Context) {
			for range 8 {
				l.Go(func(ctx context.Context) {
					for ctx.Err() == nil {
						l.Update(func() {
							if stopped {
								t.Error("a callback ran after Stop")
							}
						})
					}
				})
			}
		})
	})
	n.UI(func() { l.Stop(); stopped = true })
	n.Wait()
	_ = l.Context()
}
