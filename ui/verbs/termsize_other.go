//go:build !unix

package verbs

import (
	"os"

	"k8s.io/kubectl/pkg/util/term"

	"kscope/cluster"
)

// watchSize returns the size of the terminal f, then each change of it (kubectl's MonitorSize: polled where
// there is no SIGWINCH), and a stop; next is nil when f is not a terminal.
func watchSize(f *os.File, _ func(func())) (next func() *cluster.TerminalSize, stop func()) {
	tty := term.TTY{Out: f}
	sizes := tty.MonitorSize(tty.GetSize())
	if sizes == nil {
		return nil, func() {}
	}
	return func() *cluster.TerminalSize {
		s := sizes.Next()
		if s == nil {
			return nil
		}
		return &cluster.TerminalSize{Width: s.Width, Height: s.Height}
	}, func() {}
}
