package cli

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// endSignals are the signals that end kscope: kill's default, the terminal going away, ctrl-c outside the UI.
var endSignals = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT}

// signaller is what endOnSignals needs of the UI.
type signaller interface {
	// Signal asks the UI to end for sig; false when the UI leaves sig to the child that has the terminal.
	Signal(sig os.Signal) bool
}

// endOnSignals is kscope's one signal path while the UI runs: SIGTERM, SIGHUP and SIGINT stop app (the screen
// is finalised, the terminal restored) instead of ending the process at once. stop ends it and returns the
// signal that ended the UI, nil when none did.
func endOnSignals(app signaller) (stop func() os.Signal) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, endSignals...)
	done := make(chan struct{})
	var got os.Signal
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // (nothing here can panic: app.Signal only records and queues)
		defer wg.Done()
		for {
			select {
			case sig := <-ch:
				if app.Signal(sig) && got == nil {
					got = sig
				}
			case <-done:
				return
			}
		}
	}()
	return func() os.Signal {
		signal.Stop(ch)
		close(done)
		wg.Wait()
		return got
	}
}

// signalExit is the error kscope exits with after sig ended the UI: the code a shell gives a process that sig
// ended, 128 plus the signal's number.
func signalExit(sig os.Signal) error {
	code := 128 + 15
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
	}
	return &exitError{code: code, err: fmt.Errorf("stopped: %s", sig)}
}
