package ui

import "context"

// settler is a row source that says when it has finished opening; *watch.Source is one.
type settler interface {
	// Settled is closed once the first list, and the labels filled in behind it, are complete.
	Settled() <-chan struct{}
}

// whenSettled calls Options.Settled once src has settled, unless ctx ends first (the table closed) or
// another call is running. It blocks: run it on a goroutine of its own.
func (a *App) whenSettled(ctx context.Context, src settler) {
	if a.opts.Settled == nil {
		return
	}
	select {
	case <-ctx.Done():
		return
	case <-src.Settled():
	}
	if !a.settling.TryLock() {
		return
	}
	defer a.settling.Unlock()
	a.opts.Settled()
}
