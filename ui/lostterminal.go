package ui

import (
	"sync/atomic"

	"github.com/gdamore/tcell/v2"
)

// resumeScreen is the screen tview draws on, guarding against the terminal going away while a child (a
// shell, an attachment, an editor) had it: tcell's Resume then fails with its cell buffer emptied by Suspend
// but its size kept, and its next Show loops forever (each cell read as width 0), so the UI never stops
// and spins. After a failed Resume, Show and Sync draw nothing and lost is called once (on tview's
// goroutine: it must not block); the app then stops as for SIGHUP. Safe for concurrent use as tcell's
// screen is.
type resumeScreen struct {
	tcell.Screen
	lost func(err error)
	gone atomic.Bool
}

// Resume takes the terminal back; when it cannot, the screen is gone for good.
func (s *resumeScreen) Resume() error {
	err := s.Screen.Resume()
	if err != nil && s.gone.CompareAndSwap(false, true) && s.lost != nil {
		s.lost(err)
	}
	return err
}

// Show draws, unless the terminal is gone.
func (s *resumeScreen) Show() {
	if !s.gone.Load() {
		s.Screen.Show()
	}
}

// Sync redraws everything, unless the terminal is gone.
func (s *resumeScreen) Sync() {
	if !s.gone.Load() {
		s.Screen.Sync()
	}
}
