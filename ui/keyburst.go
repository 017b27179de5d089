package ui

import (
	"sync"

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
