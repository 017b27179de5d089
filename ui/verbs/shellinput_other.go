//go:build !unix

package verbs

import (
	"io"
	"os"
)

// shellInput returns the process's standard input for a shell. Here a read pending when the shell exits
// is not ended: it may take one key from the TUI.
func shellInput() (in io.Reader, stop func()) { return os.Stdin, func() {} }
