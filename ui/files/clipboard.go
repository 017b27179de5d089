package files

import (
	"encoding/base64"
	"fmt"
	"os"
)

// OSC52 writes text to the controlling terminal as an OSC 52 sequence: the terminal (or tmux, with
// set-clipboard on or external) puts it on the clipboard, through ssh too. It does not go through the screen
// library, which sends it only to terminals it knows as xterm-like. Safe for concurrent use.
func OSC52(text []byte) error {
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
