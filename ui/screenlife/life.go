package screenlife

import (
	"context"
	"sync"

	"kscope/ui"
)

// Life is the lifecycle of a live screen: the work it starts the first time it is shown (watches, sources,
// goroutines, a tick), all under one context derived from the navigator's, ended by the screen's Close; and
// the guard of every callback its goroutines hand back to the UI goroutine, so that none touches the screen
// once it is closed.
//
// A screen keeps a Life (the zero value is ready) and calls Start in Activate and Stop in Close:
//
//	func (v *View) Activate() {
//		v.life.Start(v.nav, func(ctx context.Context) {
//			events := v.nav.Cluster().WatchObject(ctx, …)
//			v.life.Go(func(context.Context) {
//				for ev := range events {
//					v.life.Update(func() { v.apply(ev) })
//				}
//			})
//		})
//		v.render()
//	}
//
//	func (v *View) Close() { v.life.Stop() }
//
// Start, Tick and Stop run on the UI goroutine; Go, Update, Context and Live are safe for any goroutine. A
// Life must not be copied once used.
type Life struct {
	mu      sync.Mutex // guards what follows
	nav     ui.Navigator
	ctx     context.Context
	cancel  context.CancelFunc
	stopped bool
	ticks   []context.CancelFunc
}

// done is the context of a Life not started, or stopped before it started: already ended, so that work
// started with it ends at once.
var done = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// Start starts the life the first time it is called: it derives the life's context from nav.Context(), then
// calls start with it at once, on the calling (UI) goroutine, where the screen starts its sources and its
// goroutines (Go) and its tick (Tick); it returns true. A later call, or one after Stop (a screen is not used
// after Close), does nothing and returns false. UI goroutine.
func (l *Life) Start(nav ui.Navigator, start func(ctx context.Context)) bool {
	l.mu.Lock()
	if l.nav != nil || l.stopped {
		l.mu.Unlock()
		return false
	}
	l.nav = nav
	l.ctx, l.cancel = context.WithCancel(nav.Context())
	ctx := l.ctx
	l.mu.Unlock()
	start(ctx)
	return true
}

// Go runs run on a goroutine of its own, through the navigator's Go (supervised: a panic there stops the UI
// and restores the terminal), with the life's context: run must return once it ends. Before Start, and once
// the life has stopped, it starts nothing. Any goroutine.
func (l *Life) Go(run func(ctx context.Context)) {
	nav, ctx := l.state()
	if nav == nil || ctx.Err() != nil {
		return
	}
	nav.Go(func() { run(ctx) })
}

// Update runs fn on the UI goroutine, through the navigator's Update, only while the life lasts: fn is dropped
// when the life has stopped, whether before Update was called or before the UI goroutine came to fn. So fn,
// handed back by one of the screen's goroutines, never touches the screen after its Close (which calls Stop
// on the UI goroutine). Before Start it does nothing. Any goroutine but the UI one (as the navigator's Update).
func (l *Life) Update(fn func()) {
	nav, ctx := l.state()
	if nav == nil {
		return
	}
	UpdateWhile(nav, ctx, fn)
}

// UpdateWhile runs fn on the UI goroutine through nav.Update only while ctx lasts: fn is dropped when ctx has
// ended, whether before UpdateWhile was called or before the UI goroutine came to fn. It is Life.Update for
// a context of the screen's that ends before the life does (a logs view's current range). Any goroutine but
// the UI one.
func UpdateWhile(nav ui.Navigator, ctx context.Context, fn func()) {
	if ctx.Err() != nil {
		return
	}
	nav.Update(func() {
		if ctx.Err() == nil {
			fn()
		}
	})
}

// Tick runs fn on the UI goroutine once a tick while s, the screen, is on top (the navigator's
// EveryTickWhileOnTop), until the life stops. It does nothing before Start or after Stop. UI goroutine.
func (l *Life) Tick(s ui.Screen, fn func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.nav == nil || l.stopped {
		return
	}
	l.ticks = append(l.ticks, l.nav.EveryTickWhileOnTop(s, fn))
}

// Stop ends the life: its context is cancelled (its goroutines end, its callbacks queued are dropped) and its
// ticks stop. Calling it again does nothing; called before Start, it keeps the life from ever starting. It
// does not wait for the goroutines. UI goroutine.
func (l *Life) Stop() {
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		return
	}
	l.stopped = true
	cancel, ticks := l.cancel, l.ticks
	l.ticks = nil
	l.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	for _, stop := range ticks {
		stop()
	}
}

// Context is the life's context: done once the life stops, or the navigator's context is. Before Start it
// is a context already done (work started with it ends at once). Any goroutine.
func (l *Life) Context() context.Context {
	_, ctx := l.state()
	return ctx
}

// Live tells whether the life has started and not stopped (nor the navigator's context ended). Any goroutine;
// on the UI goroutine, the answer holds until the code running there calls Stop.
func (l *Life) Live() bool {
	nav, ctx := l.state()
	return nav != nil && ctx.Err() == nil
}

// Started tells whether Start has started the life (whether or not it has stopped since). Any goroutine.
func (l *Life) Started() bool {
	nav, _ := l.state()
	return nav != nil
}

// state returns the navigator and the context (done before Start).
func (l *Life) state() (ui.Navigator, context.Context) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ctx == nil {
		return l.nav, done
	}
	return l.nav, l.ctx
}
