package ui

import (
	"context"
	"time"

	"k8s.io/utils/clock"

	"kscope/cluster"
	"kscope/ui/host"
	"kscope/ui/keymap"
	"kscope/ui/theme"
)

// Navigator is what a screen living in a package of its own may ask of the app: the keys every screen offers,
// a tick while it is on top, the stack, the prompt and status lines, goroutines, the theme, the clock and the
// cluster. *App implements it. Every method runs on the UI goroutine, but for Go and Update, which any
// goroutine may call.
type Navigator interface {
	host.Core
	host.Prompts
	// HelpBinding is `?`: the keys of the screen on top.
	HelpBinding() keymap.Binding
	// QuitBinding is `q`: quit kscope.
	QuitBinding() keymap.Binding
	// EveryTickWhileOnTop runs fn on the UI goroutine once a tick while s is the top screen, until the
	// returned cancel is called.
	EveryTickWhileOnTop(s Screen, fn func()) context.CancelFunc

	// Push shows s on top of the stack (its Activate runs).
	Push(s Screen)
	// UpdateStatus shows s's Status on the status line, if s is on top.
	UpdateStatus(s Screen)

	// SpaceRedraw spaces the refreshes of a live screen: off the UI goroutine, it waits until the app's
	// minimum time between redraws has passed since *last (the previous refresh), then sets *last to now.
	// It returns false, at once, when ctx ends first.
	SpaceRedraw(ctx context.Context, last *time.Time) bool

	// CopyToClipboard copies text to the user's clipboard and says so on the prompt line, naming it what
	// ("the lines on screen"); or says why it could not.
	CopyToClipboard(what, text string)
	// SaveFile writes data to a new file (never one that exists: name, else name-2 …) in the user's save
	// folder for kind ("logs", "tables"), private to the user, and returns its path; a folder someone else
	// could have planted (a symbolic link, another user's, writable by others) is refused, nothing written.
	SaveFile(kind, name string, data []byte) (path string, err error)

	// Theme is the UI's colors (kscope's, or the skin's over them); not changed after start.
	Theme() *theme.Theme
	// Clock is the time the UI runs on (tests step a fake one).
	Clock() clock.WithTicker
	// Width is the screen's width in cells (120 before the first draw).
	Width() int
}

var _ Navigator = (*App)(nil)

// EveryTickWhileOnTop implements Navigator: it runs fn on the UI goroutine once every Options.Tick (none when Tick is off) while v is
// the top view, until the returned cancel is called.
func (a *App) EveryTickWhileOnTop(v Screen, fn func()) context.CancelFunc {
	ctx, cancel := context.WithCancel(a.ctx)
	if a.opts.Tick <= 0 {
		return cancel
	}
	ticker := a.opts.Clock.NewTicker(a.opts.Tick)
	a.Go(func() {
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C():
				a.tv.QueueUpdateDraw(func() {
					if ctx.Err() == nil && a.top() == v {
						fn()
					}
				})
			}
		}
	})
	return cancel
}

// Update implements Navigator.
func (a *App) Update(fn func()) { a.tv.QueueUpdateDraw(fn) }

// Context implements Navigator.
func (a *App) Context() context.Context { return a.ctx }

// SpaceRedraw implements Navigator: it waits until Options.MinRedraw has passed since *last (the previous
// refresh), then sets *last to now. It returns false, at once, when ctx ends first.
func (a *App) SpaceRedraw(ctx context.Context, last *time.Time) bool {
	clk := a.opts.Clock
	if wait := a.opts.MinRedraw - clk.Since(*last); wait > 0 {
		select {
		case <-ctx.Done():
			return false
		case <-clk.After(wait):
		}
	}
	*last = clk.Now()
	return true
}

// Theme implements Navigator.
func (a *App) Theme() *theme.Theme { return a.theme }

// Clock implements Navigator.
func (a *App) Clock() clock.WithTicker { return a.opts.Clock }

// Width implements Navigator.
func (a *App) Width() int {
	if a.screen == nil {
		return 120
	}
	w, _ := a.screen.Size()
	return w
}

// Cluster implements Navigator.
func (a *App) Cluster() cluster.Interface { return a.cluster }
