package verbs

import (
	"io"
	"os"
	"strings"
	"unicode"

	xterm "golang.org/x/term"

	"kscope/cluster"
)

// streamTerminal is the terminal a stream into a container (a shell, an attachment) runs on, once the TUI
// has handed it over (withTerminal).
type streamTerminal struct {
	// in is the user's keys; out the screen.
	in  io.Reader
	out io.Writer
	// sizes returns the terminal's size, then each change (nil when it has none: not a terminal).
	sizes func() *cluster.TerminalSize
	// raw: the process's own terminal, in raw mode (no line discipline: a lone "\n" only moves down).
	raw bool
}

// withTerminal gives fn the terminal: Host.Terminal's when set (tests), else the process's own, in raw mode
// with its size changes forwarded, restored once fn returns (no read of stdin outlives fn). Call it with the
// TUI suspended.
func (v *Verbs) withTerminal(fn func(t streamTerminal) error) error {
	in, out := v.Terminal()
	own := in == nil || out == nil
	if own {
		var stop func()
		in, stop = shellInput()
		defer stop() // after the stream: no read of stdin outlives it
		out = os.Stdout
	}
	t := streamTerminal{in: in, out: out}
	if f, ok := out.(*os.File); ok {
		sizes, stop := watchSize(f, v.Go)
		defer stop() // ends the stream's size updates
		t.sizes = sizes
	}
	// Raw mode set and restored here, not with kubectl's tty.Safe: its interrupt handler would end the
	// process (os.Exit) on SIGTERM or SIGHUP with the UI never finalised; kscope's own signal path
	// (Signal) cancels v.Context() instead, which ends the stream, and the UI stops after it.
	if fd := int(os.Stdin.Fd()); own && xterm.IsTerminal(fd) {
		if state, err := xterm.MakeRaw(fd); err == nil {
			defer func() { _ = xterm.Restore(fd, state) }()
			t.raw = true
		}
	}
	return fn(t)
}

// crlf writes to w with each "\n" as "\r\n": what a terminal in raw mode needs to start lines at the left
// (a container without a terminal of its own writes plain "\n"). Stateless, so safe for concurrent writers.
type crlf struct{ w io.Writer }

func (c crlf) Write(p []byte) (int, error) {
	if _, err := c.w.Write([]byte(strings.ReplaceAll(string(p), "\n", "\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// termSafe is s for a terminal: control characters (which could start an escape sequence) become '?'.
// Names from the server pass through it before kscope writes them to the terminal.
func termSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, s)
}
