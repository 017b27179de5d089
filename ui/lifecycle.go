package ui

import (
	"context"
	"os"
	"sync"
	"syscall"

	"github.com/rivo/tview"
)

// terminal is the session's hold on the terminal, a service of its own: it hands the terminal to a child
// (suspend) and ends the UI on a signal (Signal, Interrupt), whatever holds the terminal then. One per
// session, shared by its Apps; suspend runs on the UI goroutine, Signal and Interrupt on any.
type terminal struct {
	tv *tview.Application
	// stderr is Options.Stderr; notice says a line on the prompt line from any goroutine (prompts.Notice).
	stderr StderrHandover
	notice func(line string)
	// cancelWork cancels the session's work; stopUI stops the UI (App.Stop).
	cancelWork context.CancelFunc
	stopUI     func()
	// lifeMu guards suspended (a child has the terminal) and interrupted (a signal asked the UI to stop).
	lifeMu                 sync.Mutex
	suspended, interrupted bool
}

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
func (t *terminal) Signal(sig os.Signal) bool {
	t.lifeMu.Lock()
	suspended := t.suspended
	t.lifeMu.Unlock()
	if suspended && sig == syscall.SIGINT {
		return false
	}
	t.Interrupt()
	return true
}

// Interrupt ends Run from any goroutine, whatever the UI is doing: the session's work is cancelled (a shell's
// stream ends with it) and the UI stops, finalising the screen, as soon as its goroutine is free: at once, once
// the child that has the terminal returns, or as soon as Run has started when it has not yet.
func (t *terminal) Interrupt() {
	t.lifeMu.Lock()
	t.interrupted = true
	t.lifeMu.Unlock()
	t.cancelWork()
	go t.tv.QueueUpdate(t.stopUI) // (a suspended screen cannot be finalised: the UI goroutine runs it after)
}

// enterChild marks the terminal as given to a child; false when the UI is being interrupted (no child starts
// then). UI goroutine.
func (t *terminal) enterChild() bool {
	t.lifeMu.Lock()
	defer t.lifeMu.Unlock()
	if t.interrupted {
		return false
	}
	t.suspended = true
	return true
}

// leaveChild marks the terminal as the UI's again. UI goroutine.
func (t *terminal) leaveChild() {
	t.lifeMu.Lock()
	t.suspended = false
	t.lifeMu.Unlock()
}
