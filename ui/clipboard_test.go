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

// TestCopyNameAndYAML: c copies the selected row's name in a table, the YAML as shown in the YAML view, and
// says what it copied or why it could not. (The logs view's c: TestLogsCopyTheLinesOnScreen in ui/logview.)
func TestCopyNameAndYAML(t *testing.T) {
	clip := &clipboardRecorder{}
	h := start(t, 120, 30, func(o *Options) { o.Resource = "pods"; o.Clipboard = clip.copy })
	h.press(tcell.KeyRune, '/')
	h.typeText("web-7d9f-abcde\n")
	h.press(tcell.KeyRune, 'c')
	h.eventually("copied name web-7d9f-abcde to the clipboard")
	if got := clip.last(); got != "web-7d9f-abcde" {
		t.Fatalf("copied %q", got)
	}
	h.press(tcell.KeyRune, 'y')
	h.eventually("image: nginx:1.27")
	h.press(tcell.KeyRune, 'c')
	h.eventually("copied the YAML of web-7d9f-abcde (")
	if got := clip.last(); !strings.Contains(got, "name: web-7d9f-abcde\n") || strings.Contains(got, "managedFields") {
		t.Fatalf("copied YAML:\n%s", got)
	}
	clip.err = errors.New("open the terminal: no such device")
	h.press(tcell.KeyRune, 'c')
	h.eventually("copy the YAML of web-7d9f-abcde: open the terminal: no such device")
}
