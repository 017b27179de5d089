//go:build unix

package cli

import (
	"os"
	"syscall"
)

// snapshotSignals are the signals on which a run with --memprofile writes a snapshot of the live heap
// (FILE.1, FILE.2, …): SIGUSR1, sent with `kill -USR1 PID`.
var snapshotSignals = []os.Signal{syscall.SIGUSR1}

// memprofileUsage is --memprofile's help: the profile at exit, and SIGUSR1's snapshots.
const memprofileUsage = "write a heap profile at exit to FILE; SIGUSR1 writes the live heap to FILE.1, FILE.2, …"

// reraise ends the process with sig, whose default action the caller restored (signal.Reset): the process
// ends as sig would have ended it, and its exit status is the signal's. It returns only when sig is not a
// signal the system can send (then the caller returns as if no signal had come).
func reraise(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(os.Getpid(), s)
	}
}
