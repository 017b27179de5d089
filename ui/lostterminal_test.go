package ui

import (
	"errors"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// countingScreen is a simulation screen that counts Show and Sync and fails Resume when told to.
type countingScreen struct {
	tcell.SimulationScreen
	failResume   bool
	shows, syncs int
}

func (s *countingScreen) Resume() error {
	if s.failResume {
		return errors.New("open /dev/tty: no such device")
	}
	return s.SimulationScreen.Resume()
}
func (s *countingScreen) Show() { s.shows++ }
func (s *countingScreen) Sync() { s.syncs++ }

// TestResumeScreenLostTerminal: a Resume that fails (the terminal went away while a child had it) stops
// every later draw, which on a real terminal would loop forever, and says so once; a Resume that works
// changes nothing.
func TestResumeScreenLostTerminal(t *testing.T) {
	inner := &countingScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	var lost []error
	s := &resumeScreen{Screen: inner, lost: func(err error) { lost = append(lost, err) }}
	if err := s.Resume(); err != nil {
		t.Fatal(err)
	}
	s.Show()
	s.Sync()
	if inner.shows != 1 || inner.syncs != 1 || len(lost) != 0 {
		t.Fatalf("after a good Resume: %d shows, %d syncs, lost %v", inner.shows, inner.syncs, lost)
	}
	inner.failResume = true
	for range 2 {
		if err := s.Resume(); err == nil {
			t.Fatal("the failed Resume's error is not returned")
		}
	}
	s.Show()
	s.Sync()
	if inner.shows != 1 || inner.syncs != 1 {
		t.Errorf("drawn after the terminal was lost: %d shows, %d syncs", inner.shows, inner.syncs)
	}
	if len(lost) != 1 {
		t.Errorf("lost called %d times, want once", len(lost))
	}
}
