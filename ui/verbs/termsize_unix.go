//go:build unix

package verbs

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	xterm "golang.org/x/term"

	"kscope/cluster"
)

// watchSize returns the size of the terminal f, then each change of it, and a stop; next is nil when f is not
// a terminal. The SIGWINCH subscription is made before the first size is read, so a resize at any moment
// after watchSize is called is seen (kubectl's MonitorSize subscribes on a goroutine of its own after its
// first read, and drops a change that comes while the previous one is not yet taken). Changes that come
// faster than next is called are coalesced into the latest. next returns nil once stop was called; stop is
// idempotent. The watching goroutine is started with start.
func watchSize(f *os.File, start func(func())) (next func() *cluster.TerminalSize, stop func()) {
	fd := int(f.Fd())
	if !xterm.IsTerminal(fd) {
		return nil, func() {}
	}
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	latest := make(chan cluster.TerminalSize, 1) // written by one goroutine at a time: offer never blocks
	done := make(chan struct{})
	offer := func() {
		w, h, err := xterm.GetSize(fd)
		if err != nil || w <= 0 || h <= 0 {
			return
		}
		select {
		case <-latest: // a size not taken yet is stale now
		default:
		}
		latest <- cluster.TerminalSize{Width: uint16(w), Height: uint16(h)}
	}
	offer()
	start(func() {
		for {
			select {
			case <-done:
				return
			case <-winch:
				offer()
			}
		}
	})
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(winch)
			close(done)
		})
	}
	next = func() *cluster.TerminalSize {
		select {
		case s := <-latest:
			return &s
		case <-done:
			return nil
		}
	}
	return next, stop
}
