package watch

import (
	"context"
	"sync"

	"kscope/apierr"
	"kscope/spawn"
)

// Lifecycle is the life every source shares, embedded by each of them (Source, ObjectSource, StaticSource,
// tree.Source, and package union's joined sources through NewFedSource): Start starts the source's goroutines once, and never after Stop; Stop stops them, waits until
// they have returned and releases what the source holds; Done is closed once they have returned; Notify
// carries the source's coalesced change signals, which Signal sends. What a source runs and what it releases
// are its own (Hooks). All methods are safe for concurrent use; Signal never blocks and allocates nothing (a
// source calls it per change, on its informer's goroutine).
type Lifecycle struct {
	hooks  Hooks
	notify chan struct{}
	// stopping, when set, is called by every Stop with mu held, before the goroutines are stopped (a row
	// source's move to Stopped: phased).
	stopping func()

	// mu guards the fields below, and those of the embedding source that say so.
	mu      sync.Mutex
	started bool               // Start has run Hooks.Run
	stopped bool               // Stop has been called
	cancel  context.CancelFunc // ends the context of the goroutines; nil until Start
	done    chan struct{}      // closed once the goroutines have returned; nil before Start and Stop
}

// Hooks are the parts of a source's Lifecycle that are its own. A plain value, given to NewLifecycle.
type Hooks struct {
	// Go starts the source's goroutines (nil: plain goroutines).
	Go spawn.Func
	// Run starts the source's work under ctx, which ends with Stop or the context given to Start. It is called
	// once, by the first Start before any Stop, with the Lifecycle's lock held (it must not call the
	// Lifecycle's methods but Signal), and must return at once. Each goroutine it starts goes through spawn,
	// during Run only, so that Done waits for it. Nil: nothing to run.
	Run func(ctx context.Context, spawn func(fn func()))
	// Release is called by every Stop, on Stop's goroutine, once the goroutines have returned (the rows are
	// let go). Nil: nothing to release.
	Release func()
}

// NewLifecycle returns the Lifecycle of a source with hooks, not started. It is safe for concurrent use.
func NewLifecycle(hooks Hooks) *Lifecycle {
	return &Lifecycle{hooks: hooks, notify: make(chan struct{}, 1)}
}

// Start runs the source (Hooks.Run) and returns at once. Calling it again, or after Stop, does nothing. The
// source's goroutines stop when ctx ends or when Stop is called. Safe from any goroutine.
func (l *Lifecycle) Start(ctx context.Context) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started || l.stopped {
		return
	}
	l.started = true
	ctx, l.cancel = context.WithCancel(ctx)
	done := make(chan struct{})
	l.done = done
	var wg sync.WaitGroup
	spawned := false
	if l.hooks.Run != nil {
		l.hooks.Run(ctx, func(fn func()) {
			spawned = true
			wg.Add(1)
			l.hooks.Go.Go(func() {
				defer wg.Done()
				fn()
			})
		})
	}
	if !spawned {
		close(done)
		return
	}
	l.hooks.Go.Go(func() {
		wg.Wait()
		close(done)
	})
}

// Stop stops the source's goroutines, waits until they have returned, then releases what the source holds
// (Hooks.Release). It is idempotent, and a source stopped before Start never starts (Done is closed at
// once). Safe from any goroutine but the source's own (it waits for them).
func (l *Lifecycle) Stop() {
	l.mu.Lock()
	l.stopped = true
	if l.done == nil {
		l.done = make(chan struct{})
		close(l.done)
	}
	cancel, done := l.cancel, l.done
	if l.stopping != nil {
		l.stopping()
	}
	l.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	if l.hooks.Release != nil {
		l.hooks.Release()
	}
}

// Done returns a channel that is closed once the source's goroutines have returned (after Stop, when the
// Start context ends, or when the source ended on its own, e.g. on a terminal error). Before Start and Stop
// it returns nil. Safe from any goroutine.
func (l *Lifecycle) Done() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.done
}

// Notify returns a channel (capacity 1) that receives whenever the source changed. Signals are coalesced:
// one receive may stand for many changes. Safe from any goroutine.
func (l *Lifecycle) Notify() <-chan struct{} { return l.notify }

// Signal wakes a reader of Notify. It never blocks and allocates nothing; safe from any goroutine, with or
// without the Lifecycle's lock.
func (l *Lifecycle) Signal() {
	select {
	case l.notify <- struct{}{}:
	default: // a signal is pending already
	}
}

// phased is the Lifecycle of a row source, which has a phase (State): Source, ObjectSource and StaticSource.
// Its phase changes through nextPhase (transitionLocked), and Stop makes it Stopped unless it is terminal;
// state and synced are guarded by the Lifecycle's lock. Its methods are safe for concurrent use.
type phased struct {
	*Lifecycle
	state  State
	synced bool // the first list completed
}

// initLifecycle makes p the Lifecycle of a source with hooks, in state st. The embedding source calls it
// once, from its constructor.
func (p *phased) initLifecycle(hooks Hooks, st State) {
	p.Lifecycle = NewLifecycle(hooks)
	p.state = st
	p.stopping = func() { p.transitionLocked(event{kind: evStopped}, nil) }
}

// State returns the current phase and error.
func (p *phased) State() State {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.state
}

// transition applies ev, caused by err (nil for none), through nextPhase; see transitionLocked.
func (p *phased) transition(ev event, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.transitionLocked(ev, err)
}

// transitionLocked applies ev, caused by err (nil for none), through nextPhase: every phase change of a Source
// or an ObjectSource goes through here. A change signals readers; a terminal phase cancels the goroutines.
// The caller holds p.mu.
func (p *phased) transitionLocked(ev event, err error) {
	next, ok := nextPhase(p.state.Phase, p.synced, ev)
	if !ok {
		return
	}
	st := State{Phase: next}
	if err != nil {
		st.Err, st.Message = err, apierr.Message(err)
	}
	p.state = st
	p.Signal()
	if next.Terminal() && p.cancel != nil {
		p.cancel()
	}
}

// syncedLocked records that the first list has completed; the caller holds p.mu.
func (p *phased) syncedLocked() {
	p.synced = true
	p.transitionLocked(event{kind: evSynced}, nil)
}

// connected is called after each successful list or watch request: a reconnecting source is synced again.
func (p *phased) connected() { p.transition(event{kind: evConnected}, nil) }

// disconnected is called when a watch request fails, its stream breaks, or the server ends it with an ERROR
// event (410 Gone). The reflector retries or relists after these without always reporting them to
// watchError, so a synced source becomes Reconnecting at once; the next successful list or watch makes it
// Synced again. Terminal errors (apierr.Classify) are left to watchError.
func (p *phased) disconnected(err error) {
	p.transition(event{kind: evDisconnected, class: apierr.Classify(err)}, err)
}

// watchError records a failed list or watch request. A terminal error (Forbidden, NotFound,
// MethodNotSupported, Unauthorized, BadRequest) stops the source's goroutines; anything else leaves the
// reflector to back off and relist.
func (p *phased) watchError(err error) {
	p.transition(event{kind: evWatchError, class: apierr.Classify(err)}, err)
}
