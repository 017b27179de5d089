//go:build unix

package main

import (
	"os"
	"syscall"
)

// peakRSSMB is the peak resident set of the process that ended with state, in MiB, from the kernel's
// rusage (ru_maxrss, KiB on Linux); 0 when the system does not say.
func peakRSSMB(state *os.ProcessState) float64 {
	if ru, ok := state.SysUsage().(*syscall.Rusage); ok {
		return float64(ru.Maxrss) / 1024
	}
	return 0
}

// heapSnapshot asks the kscope with pid (run with --memprofile) to write a snapshot of its live heap:
// SIGUSR1. An error is dropped: the bench reads the snapshots it finds.
func heapSnapshot(pid int) {
	_ = syscall.Kill(pid, syscall.SIGUSR1)
}
