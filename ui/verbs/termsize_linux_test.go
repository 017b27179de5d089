package verbs

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"kscope/cluster"
)

// openPTY returns a new pseudo-terminal's controlling and terminal sides, closed when t ends.
func openPTY(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock the pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("the pty's number: %v", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pty's terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return ptmx, tty
}

// resize sets the terminal's size and signals the process, as a terminal emulator does.
func resize(t *testing.T, tty *os.File, width, height uint16) {
	t.Helper()
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: width, Row: height}); err != nil {
		t.Fatalf("set the size: %v", err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
}

// nextWithin calls next on its own goroutine and returns its answer, failing t after 10 s.
func nextWithin(t *testing.T, next func() *cluster.TerminalSize) *cluster.TerminalSize {
	t.Helper()
	got := make(chan *cluster.TerminalSize, 1)
	go func() { got <- next() }()
	select {
	case s := <-got:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("no size within 10 s")
		return nil
	}
}

// TestWatchSizeSeesEveryResize: the first size is the terminal's; a resize that comes before the watching
// goroutine runs is not lost (the signal is subscribed to first); resizes faster than they are taken end at
// the latest, never an older size after a newer one; stop ends next with nil.
func TestWatchSizeSeesEveryResize(t *testing.T) {
	_, tty := openPTY(t)
	resize(t, tty, 160, 45)
	release := make(chan struct{})
	next, stop := watchSize(tty, func(fn func()) {
		go func() {
			<-release // the watcher starts late, as under load
			fn()
		}()
	})
	defer stop()
	if next == nil {
		t.Fatal("watchSize found no terminal on a pty")
	}
	if s := nextWithin(t, next); *s != (cluster.TerminalSize{Width: 160, Height: 45}) {
		t.Errorf("first size %+v, want 160x45", *s)
	}
	resize(t, tty, 120, 40)
	close(release)
	if s := nextWithin(t, next); *s != (cluster.TerminalSize{Width: 120, Height: 40}) {
		t.Errorf("after a resize before the watcher ran: %+v, want 120x40", *s)
	}
	resize(t, tty, 100, 30)
	resize(t, tty, 90, 20)
	// Sizes come in the order the terminal took them and end at the latest. The size read for a signal that
	// arrived while the watcher started may come again (read twice, delivered once each): a repeat, harmless.
	newer := false // 100x30 seen: 120x40 may not come again
	for s := nextWithin(t, next); *s != (cluster.TerminalSize{Width: 90, Height: 20}); s = nextWithin(t, next) {
		switch *s {
		case cluster.TerminalSize{Width: 100, Height: 30}:
			newer = true
		case cluster.TerminalSize{Width: 120, Height: 40}:
			if newer {
				t.Fatalf("between two resizes: 120x40 after 100x30")
			}
		default:
			t.Fatalf("between two resizes: %+v, want 100x30 (or a repeat of 120x40) then 90x20", *s)
		}
	}
	stop()
	if s := nextWithin(t, next); s != nil {
		t.Errorf("next after stop: %+v, want nil", *s)
	}
}

// TestWatchSizeNotATerminal: a pipe has no size to watch.
func TestWatchSizeNotATerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if next, stop := watchSize(w, func(fn func()) { go fn() }); next != nil {
		stop()
		t.Error("watchSize watched a pipe")
	}
}
