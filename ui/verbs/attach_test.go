package verbs

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"kscope/cluster"
)

// TestDetachReader: the keys pass on until ctrl-p ctrl-q (a ctrl-p alone passes on with what follows it),
// or with andCtrlC a ctrl-c; then detach is called and the reader ends.
func TestDetachReader(t *testing.T) {
	for _, tt := range []struct {
		name, in, passed   string
		andCtrlC, detached bool
	}{
		{"plain keys", "ls\r", "ls\r", false, false},
		{"detach keys", "ls\r\x10\x11exit\r", "ls\r", false, true},
		{"ctrl-p alone", "a\x10b\x10\x11c", "a\x10b", false, true},
		{"ctrl-p at the end", "a\x10", "a", false, false},
		{"ctrl-c sent", "top\x03q", "top\x03q", false, false},
		{"ctrl-c detaches", "top\x03q", "top", true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			detached := 0
			r := newDetachReader(strings.NewReader(tt.in), tt.andCtrlC, func() { detached++ })
			got, err := io.ReadAll(r)
			if err != nil || string(got) != tt.passed || (detached > 0) != tt.detached || r.n.Load() != int64(len(tt.passed)) {
				t.Errorf("read %q (%v, %d counted), detached %d times; want %q, detached %v", got, err, r.n.Load(), detached, tt.passed, tt.detached)
			}
		})
	}
}

// TestCRLFAndTermSafe: crlf starts each line at the left of a raw terminal; termSafe leaves no control
// character for the terminal to read as the start of an escape sequence.
func TestCRLFAndTermSafe(t *testing.T) {
	var b bytes.Buffer
	if n, err := (crlf{&b}).Write([]byte("a\nb\r\n")); n != 5 || err != nil || b.String() != "a\r\nb\r\r\n" {
		t.Errorf("crlf wrote %q (%d, %v)", b.String(), n, err)
	}
	if got := termSafe("shop/web (\x1b]0;x\x07\u009b)"); got != "shop/web (?]0;x??)" {
		t.Errorf("termSafe: %q", got)
	}
}

// TestRedrawFirst: the first size goes one cell larger, then as it is, then the changes as they come.
func TestRedrawFirst(t *testing.T) {
	queue := []*cluster.TerminalSize{{Width: 80, Height: 24}, {Width: 100, Height: 30}, nil}
	next := redrawFirst(func() *cluster.TerminalSize {
		s := queue[0]
		queue = queue[1:]
		return s
	})
	var got []string
	for s := next(); s != nil; s = next() {
		got = append(got, fmt.Sprintf("%dx%d", s.Width, s.Height))
	}
	if strings.Join(got, " ") != "81x25 80x24 100x30" {
		t.Errorf("sizes sent %q", got)
	}
}
