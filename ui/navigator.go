package ui

import "context"

// Navigator is what a screen living in a package of its own may ask of the app: the keys every screen offers,
// and a tick while it is on top. *App implements it. UI goroutine only.
type Navigator interface {
	// HelpBinding is `?`: the keys of the screen on top.
	HelpBinding() Binding
	// QuitBinding is `q`: quit kscope.
	QuitBinding() Binding
	// EveryTickWhileOnTop runs fn on the UI goroutine once a tick while s is the top screen, until the
	// returned cancel is called.
	EveryTickWhileOnTop(s Screen, fn func()) context.CancelFunc
}

var _ Navigator = (*App)(nil)

// TableScreens are the screens, each in a package of its own, that a live table opens with its key in
// keyTable: the program registers them in Options (one line each); a screen not registered leaves its key
// unbound. A plain value.
type TableScreens struct {
	// Pulse opens the pulse of a table's informers (`i`): label is the table's title, src its rows.
	Pulse func(nav Navigator, label string, src RowSource) Screen
}

// EveryTickWhileOnTop implements Navigator: it runs fn on the UI goroutine once every Options.Tick (none when Tick is off) while v is
// the top view, until the returned cancel is called.
func (a *App) EveryTickWhileOnTop(v Screen, fn func()) context.CancelFunc {
	ctx, cancel := context.WithCancel(a.ctx)
	if a.opts.Tick <= 0 {
		return cancel
	}
	ticker := a.opts.Clock.NewTicker(a.opts.Tick)
	a.goSafe(func() {
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
