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

func TestCopyNameYAMLAndLogLines(t *testing.T) {
	clip := &clipboardRecorder{}
	h := openPodLogs(t, func(o *Options) { o.Clipboard = clip.copy }, func(h *harness) { seedLog(h, "web-7d9f-abcde", "web", 3) },
		"web-7d9f-abcde", 'l')
	h.eventually("web line-3")
	h.press(tcell.KeyRune, 'c')
	h.eventually("copied the lines on screen (3 lines) to the clipboard")
	if got := clip.last(); got != "web line-1\nweb line-2\nweb line-3\n" {
		t.Fatalf("copied %q", got)
	}
	h.press(tcell.KeyEscape, 0)
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
