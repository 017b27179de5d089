package watch

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// lifecycleProbe is a source made of a phased Lifecycle only: Run starts goroutines that wait for their
// context, and the probe counts runs, releases, and goroutines still running at a release.
type lifecycleProbe struct {
	phased
	goroutines        int
	runs, releases    atomic.Int32
	live, liveRelease atomic.Int32
}

func newLifecycleProbe(goroutines int) *lifecycleProbe {
	p := &lifecycleProbe{goroutines: goroutines}
	p.initLifecycle(Hooks{Run: p.run, Release: p.release}, State{Phase: Listing})
	return p
}

func (p *lifecycleProbe) run(ctx context.Context, spawn func(func())) {
	p.runs.Add(1)
	for range p.goroutines {
		p.live.Add(1)
		spawn(func() {
			defer p.live.Add(-1)
			<-ctx.Done()
		})
	}
}

func (p *lifecycleProbe) release() {
	p.releases.Add(1)
	p.liveRelease.Add(p.live.Load())
}

func TestLifecycle(t *testing.T) {
	forbidden := apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("no rights"))
	type probe struct {
		p      *lifecycleProbe
		cancel context.CancelFunc // the Start context's
		ctx    context.Context
	}
	ops := map[string]func(*probe){
		"start":      func(p *probe) { p.p.Start(p.ctx) },
		"stop":       func(p *probe) { p.p.Stop() },
		"end ctx":    func(p *probe) { p.cancel() },
		"synced":     func(p *probe) { p.p.mu.Lock(); p.p.syncedLocked(); p.p.mu.Unlock() },
		"connected":  func(p *probe) { p.p.connected() },
		"disconnect": func(p *probe) { p.p.disconnected(errors.New("connection reset by peer")) },
		"forbidden":  func(p *probe) { p.p.watchError(forbidden) },
	}
	tests := []struct {
		name       string
		goroutines int // started by Run
		do         []string
		runs       int32  // Run calls
		releases   int32  // Release calls
		done       string // "nil", "open" or "closed"
		phase      Phase
		notified   bool // a signal is pending on Notify
	}{
		{"not started", 2, nil, 0, 0, "nil", Listing, false},
		{"running", 2, []string{"start"}, 1, 0, "open", Listing, false},
		{"start and stop", 2, []string{"start", "stop"}, 1, 1, "closed", Stopped, true},
		{"start once, stop twice", 2, []string{"start", "start", "stop", "stop", "start"}, 1, 2, "closed", Stopped, true},
		{"stop before start", 2, []string{"stop", "start"}, 0, 1, "closed", Stopped, true},
		{"nothing to run", 0, []string{"start"}, 1, 0, "closed", Listing, false},
		{"start context ends", 2, []string{"start", "end ctx"}, 1, 0, "closed", Listing, false},
		{"synced notifies", 1, []string{"start", "synced"}, 1, 0, "open", Synced, true},
		{"no change, no signal", 1, []string{"start", "connected"}, 1, 0, "open", Listing, false},
		{"transient error", 1, []string{"start", "synced", "disconnect"}, 1, 0, "open", Reconnecting, true},
		{"reconnected", 1, []string{"start", "synced", "disconnect", "connected"}, 1, 0, "open", Synced, true},
		{"terminal error ends the goroutines", 2, []string{"start", "forbidden"}, 1, 0, "closed", Forbidden, true},
		{"stop keeps a terminal state", 2, []string{"start", "forbidden", "stop"}, 1, 1, "closed", Forbidden, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			p := &probe{p: newLifecycleProbe(tt.goroutines), ctx: ctx, cancel: cancel}
			defer p.p.Stop()
			for _, op := range tt.do {
				ops[op](p)
			}
			if n := p.p.runs.Load(); n != tt.runs {
				t.Errorf("Run called %d times, want %d", n, tt.runs)
			}
			if n := p.p.releases.Load(); n != tt.releases {
				t.Errorf("Release called %d times, want %d", n, tt.releases)
			}
			if n := p.p.liveRelease.Load(); n != 0 {
				t.Errorf("Release called with %d goroutines still running", n)
			}
			done := p.p.Done()
			switch {
			case tt.done == "nil" && done != nil:
				t.Error("Done is not nil")
			case tt.done == "open":
				select {
				case <-done:
					t.Error("Done closed while the goroutines run")
				default:
				}
			case tt.done == "closed":
				select {
				case <-done:
					if n := p.p.live.Load(); n != 0 {
						t.Errorf("Done closed with %d goroutines running", n)
					}
				case <-time.After(5 * time.Second):
					t.Error("Done not closed")
				}
			}
			if st := p.p.State(); st.Phase != tt.phase {
				t.Errorf("phase %s, want %s", st.Phase, tt.phase)
			}
			select {
			case <-p.p.Notify():
				if !tt.notified {
					t.Error("notified")
				}
			default:
				if tt.notified {
					t.Error("not notified")
				}
			}
		})
	}
}

// TestLifecycleConcurrentStartStop starts and stops one Lifecycle from many goroutines (for -race): Run runs
// at most once, and every Stop returns with the goroutines gone.
func TestLifecycleConcurrentStartStop(t *testing.T) {
	for range 20 {
		p := newLifecycleProbe(3)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if i%2 == 0 {
					p.Start(context.Background())
				} else {
					p.Stop()
				}
			}()
		}
		wg.Wait()
		if p.runs.Load() > 1 || p.liveRelease.Load() != 0 {
			t.Fatalf("%d runs, %d goroutines running at a release", p.runs.Load(), p.liveRelease.Load())
		}
		select {
		case <-p.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("Done not closed after Stop")
		}
	}
}

// TestLifecycleWithoutHooks is tree.Source's shape without informers: nil Run and Release, no phase.
func TestLifecycleWithoutHooks(t *testing.T) {
	l := NewLifecycle(Hooks{})
	l.Start(context.Background())
	select {
	case <-l.Done():
	default:
		t.Fatal("Done not closed with nothing running")
	}
	l.Stop()
	select {
	case <-l.Notify():
		t.Fatal("a bare Lifecycle's Stop notified")
	default:
	}
}

// TestSignalAllocatesNothing: sources call Signal once per changed row.
func TestSignalAllocatesNothing(t *testing.T) {
	l := NewLifecycle(Hooks{})
	if n := testing.AllocsPerRun(100, l.Signal); n != 0 {
		t.Fatalf("Signal allocates %.0f times", n)
	}
	select {
	case <-l.Notify():
	default:
		t.Fatal("no signal")
	}
}
