package ui

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"unicode"
)

// ClipboardFunc puts text on the user's clipboard. It runs on the UI goroutine and must not block for long.
type ClipboardFunc func(text []byte) error

// osc52Clipboard writes text to the controlling terminal as an OSC 52 sequence: the terminal (or tmux, with
// set-clipboard on or external) puts it on the clipboard, through ssh too. It does not go through the screen
// library, which sends it only to terminals it knows as xterm-like.
func osc52Clipboard(text []byte) error {
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("open the terminal: %w", err)
	}
	defer tty.Close()
	if _, err := fmt.Fprintf(tty, "\x1b]52;c;%s\a", base64.StdEncoding.EncodeToString(text)); err != nil {
		return fmt.Errorf("write to the terminal: %w", err)
	}
	return nil
}

// maxClipboard bounds what one copy puts on the clipboard: the terminal receives it as one escape
// sequence (OSC 52, base64), which a terminal or tmux may cut or stall on when it is large.
const maxClipboard = 1 << 20

// CopyToClipboard implements Navigator: it copies text and says what was copied (what: "name web-1", "the
// YAML of web-1"); text over maxClipboard (1 MiB) is refused with one line.
func (a *App) CopyToClipboard(what, text string) {
	if text == "" {
		a.errorf("nothing to copy")
		return
	}
	if len(text) > maxClipboard {
		a.errorf("copy %s: not copied: %d bytes is over the clipboard's limit of 1 MiB (save it with ctrl-s instead)", what, len(text))
		return
	}
	if err := a.opts.Clipboard([]byte(text)); err != nil {
		a.errorf("copy %s: %s", what, err)
		return
	}
	lines := strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
	if lines > 1 {
		a.message(fmt.Sprintf("copied %s (%d lines) to the clipboard", what, lines))
		return
	}
	a.message(fmt.Sprintf("copied %s to the clipboard", what))
}

// copyName copies an object's name; one holding a line break (or another control character) is refused
// with one line, since pasted into a shell what follows the break would run.
func (a *App) copyName(name string) {
	if i := strings.IndexFunc(name, unicode.IsControl); i >= 0 {
		a.errorf("copy name: not copied: the name %q holds a control character (%q), which pasted into a shell would run what follows it", name, name[i:i+1])
		return
	}
	a.CopyToClipboard("name "+name, name)
}
