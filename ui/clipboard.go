package ui

import (
	"fmt"
	"strings"
	"unicode"
)

// ClipboardFunc puts text on the user's clipboard. It runs on the UI goroutine and must not block for long.
type ClipboardFunc func(text []byte) error

// maxClipboard bounds what one copy puts on the clipboard: the terminal receives it as one escape
// sequence (OSC 52, base64), which a terminal or tmux may cut or stall on when it is large.
const maxClipboard = 1 << 20

// CopyToClipboard implements Navigator: it copies text and says what was copied (what: "name web-1", "the
// YAML of web-1"); text over maxClipboard (1 MiB) is refused with one line.
func (a *App) CopyToClipboard(what, text string) {
	if text == "" {
		a.Errorf("nothing to copy")
		return
	}
	if len(text) > maxClipboard {
		a.Errorf("copy %s: not copied: %d bytes is over the clipboard's limit of 1 MiB (save it with ctrl-s instead)", what, len(text))
		return
	}
	if err := a.opts.Clipboard([]byte(text)); err != nil {
		a.Errorf("copy %s: %s", what, err)
		return
	}
	lines := strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
	if lines > 1 {
		a.Message(fmt.Sprintf("copied %s (%d lines) to the clipboard", what, lines))
		return
	}
	a.Message(fmt.Sprintf("copied %s to the clipboard", what))
}

// copyName copies an object's name; one holding a line break (or another control character) is refused
// with one line, since pasted into a shell what follows the break would run.
func (a *App) copyName(name string) {
	if i := strings.IndexFunc(name, unicode.IsControl); i >= 0 {
		a.Errorf("copy name: not copied: the name %q holds a control character (%q), which pasted into a shell would run what follows it", name, name[i:i+1])
		return
	}
	a.CopyToClipboard("name "+name, name)
}
