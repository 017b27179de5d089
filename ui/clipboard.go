package ui

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"
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

// CopyToClipboard implements Navigator: it copies text and says what was copied (what: "name web-1", "the
// YAML of web-1").
func (a *App) CopyToClipboard(what, text string) {
	if text == "" {
		a.errorf("nothing to copy")
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
