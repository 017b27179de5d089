package ui

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// clipboardRecorder keeps what the app copied.
type clipboardRecorder struct {
	mu     sync.Mutex
	copied []string
	err    error
}

func (c *clipboardRecorder) copy(text []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	c.copied = append(c.copied, string(text))
	return nil
}

func (c *clipboardRecorder) last() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.copied) == 0 {
		return ""
	}
	return c.copied[len(c.copied)-1]
}

// TestCopyName: c copies the selected row's name in a table, and says what it copied or why it could not.
// (The YAML view's c: TestCopyYAML in ui/objectview; the logs view's: TestLogsCopyTheLinesOnScreen in
// ui/logview.)
func TestCopyName(t *testing.T) {
	clip := &clipboardRecorder{}
	h := start(t, 120, 30, func(o *Options) { o.Resource = "pods"; o.Clipboard = clip.copy })
	h.press(tcell.KeyRune, '/')
	h.typeText("web-7d9f-abcde\n")
	h.press(tcell.KeyRune, 'c')
	h.eventually("copied name web-7d9f-abcde to the clipboard")
	if got := clip.last(); got != "web-7d9f-abcde" {
		t.Fatalf("copied %q", got)
	}
	clip.err = errors.New("open the terminal: no such device")
	h.press(tcell.KeyRune, 'c')
	h.eventually("copy name web-7d9f-abcde: open the terminal: no such device")
}

// TestCopyBounded: a copy over 1 MiB, or of a name holding a line break, is refused with one line and puts
// nothing on the clipboard; 1 MiB exactly is copied.
func TestCopyBounded(t *testing.T) {
	clip := &clipboardRecorder{}
	h := start(t, 160, 30, func(o *Options) { o.Resource = "pods"; o.Clipboard = clip.copy })
	h.eventually("pods(shop)")
	h.quietly(func() { h.app.CopyToClipboard("the YAML of big", strings.Repeat("x", maxClipboard+1)) })
	h.eventually("copy the YAML of big: not copied: 1048577 bytes is over the clipboard's limit of 1 MiB")
	h.quietly(func() { h.app.copyName("web\nrm -rf ~") })
	h.eventually(`copy name: not copied: the name "web\nrm -rf ~" holds a control character ("\n")`)
	if got := clip.last(); got != "" {
		t.Fatalf("copied %d bytes", len(got))
	}
	h.quietly(func() { h.app.CopyToClipboard("the YAML of fits", strings.Repeat("x", maxClipboard)) })
	h.eventually("copied the YAML of fits to the clipboard")
	if got := clip.last(); len(got) != maxClipboard {
		t.Fatalf("copied %d bytes, want %d", len(got), maxClipboard)
	}
}
