package ui

import (
	"os"
	"syscall"
)

// stopOnFailure stops the UI once a goroutine of the supervisor has panicked (Run then returns the panic),
// unless the UI ends first. Run starts it.
func (a *App) stopOnFailure() {
	select {
	case <-a.sup.Failed():
		a.Interrupt()
	case <-a.ctx.Done():
	}
}

// Signal is what kscope does with a signal that asks it to end (SIGTERM, SIGHUP, SIGINT): it stops the UI
// (Interrupt) and tells true; but a SIGINT while a child has the terminal came from the user's ctrl-c to that
// child (it reaches the whole foreground process group), so it is ignored, as a shell ignores it while a job
// runs, and Signal tells false. Safe for any goroutine.
func (a *App) Signal(sig os.Signal) bool {
	a.lifeMu.Lock()
	suspended := a.suspended
	a.lifeMu.Unlock()
	if suspended && sig == syscall.SIGINT {
		return false
	}
	a.Interrupt()
	return true
}

// Interrupt ends Run from any goroutine, whatever the UI is doing: the session's work is cancelled (a shell's
// stream ends with it) and the UI stops, finalising the screen, as soon as its goroutine is free: at once, once
// the child that has the terminal returns, or as soon as Run has started when it has not yet.
func (a *App) Interrupt() {
	a.lifeMu.Lock()
	a.interrupted = true
	a.lifeMu.Unlock()
	a.cancel()
	go a.tv.QueueUpdate(a.Stop) // (a suspended screen cannot be finalised: the UI goroutine runs it after)
}

// enterChild marks the terminal as given to a child; false when the UI is being interrupted (no child starts
// then). UI goroutine.
func (a *App) enterChild() bool {
	a.lifeMu.Lock()
	defer a.lifeMu.Unlock()
	if a.interrupted {
		return false
	}
	a.suspended = true
	return true
}

// leaveChild marks the terminal as the UI's again. UI goroutine.
func (a *App) leaveChild() {
	a.lifeMu.Lock()
	a.suspended = false
	a.lifeMu.Unlock()
}
