//go:build !unix

package cli

import (
	"os"
)

// snapshotSignals is empty: Windows has no user signal to ask a running kscope for a snapshot of its live
// heap, so --memprofile writes the heap profile when kscope quits (q, ctrl-c in the UI, or the console
// closing), and only then.
var snapshotSignals []os.Signal

// memprofileUsage is --memprofile's help, saying that here the profile is written on quit only.
const memprofileUsage = "write a heap profile to FILE when kscope quits (no live snapshots on this system: it has no SIGUSR1)"

// reraise ends the process after sig (ctrl-c or ctrl-break in the console, the console closing), with the
// exit status a shell gives a process sig ended, 128 plus its number (signalExit's), as the system cannot
// deliver sig again to kscope itself.
func reraise(sig os.Signal) {
	os.Exit(exitCode(signalExit(sig)))
}
