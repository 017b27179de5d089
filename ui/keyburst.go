package ui

import (
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
)

// maxFollowed bounds the keys burstScreen remembers: a key that never reaches the app (tview collects the
// keys of a bracketed paste itself) would otherwise stay for the session.
const maxFollowed = 1024

// burstScreen is the terminal's screen, noting for each key event whether more input was already waiting
// behind it when tview took it off the terminal. The app handles such a key without drawing (see
// App.skipDraw), so a burst of keys — typed ahead, sent by a script, pasted without bracketed paste — is
// drawn once, after its last key, instead of once per key (each draw of a big table costs milliseconds).
// PollEvent runs on tview's event goroutine, followed on the UI goroutine; both are safe for concurrent use.
type burstScreen struct {
	tcell.Screen

	// initErr is what Init returned (tview's SetScreen initializes the screen and drops the error).
	initErr error

	mu       sync.Mutex
	followed map[*tcell.EventKey]struct{}
}

// Init initializes the terminal, keeping the error for openTerminal.
func (s *burstScreen) Init() error {
	s.initErr = s.Screen.Init()
	return s.initErr
}

func newBurstScreen(s tcell.Screen) *burstScreen {
	return &burstScreen{Screen: s, followed: map[*tcell.EventKey]struct{}{}}
}

// PollEvent returns the terminal's next event, noting a key that more input follows.
func (s *burstScreen) PollEvent() tcell.Event {
	ev := s.Screen.PollEvent()
	if k, ok := ev.(*tcell.EventKey); ok && s.Screen.HasPendingEvent() {
		s.mu.Lock()
		if len(s.followed) >= maxFollowed {
			clear(s.followed)
		}
		s.followed[k] = struct{}{}
		s.mu.Unlock()
	}
	return ev
}

// takeFollowed tells whether more input followed k when it was read, and forgets k.
func (s *burstScreen) takeFollowed(k *tcell.EventKey) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.followed[k]
	delete(s.followed, k)
	return ok
}

// burstDraw is how long after a skipped draw the app draws anyway, should no draw have come since: what
// followed the key may not be a key that draws (a terminal's reply, a focus or paste event, a key the prompt
// takes), and the screen must not stay as it was before the key.
const burstDraw = 50 * time.Millisecond

// beforeDraw is tview's before-draw hook: it skips the draw that follows a key with more input behind it
// (capture sets skipDraw), and then makes sure one comes within burstDraw (drawSoon). UI goroutine.
func (a *App) beforeDraw(tcell.Screen) bool {
	skip := a.skipDraw
	a.skipDraw = false
	if skip {
		a.drawSoon()
		return true
	}
	a.draws++
	return false
}

// drawSoon draws after burstDraw unless the app has drawn by then (the burst's last key did). UI goroutine.
func (a *App) drawSoon() {
	if a.drawLater {
		return
	}
	a.drawLater = true
	seen, clk := a.draws, a.opts.Clock
	a.Go(func() {
		select {
		case <-a.ctx.Done():
			return
		case <-clk.After(burstDraw):
		}
		a.tv.QueueUpdate(func() {
			a.drawLater = false
			if a.draws == seen {
				a.tv.ForceDraw()
			}
		})
	})
}
