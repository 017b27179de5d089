//go:build !unix

package main

import (
	"fmt"
	"os"
	"sync"
)

// peakRSSMB is 0: this system's rusage has no peak resident set.
func peakRSSMB(*os.ProcessState) float64 { return 0 }

// noSnapshots says once that live heap snapshots need SIGUSR1.
var noSnapshots sync.Once

// heapSnapshot cannot ask kscope for a snapshot here (no SIGUSR1): it says so on standard error, once; the
// heap profile kscope writes when it quits is still there.
func heapSnapshot(int) {
	noSnapshots.Do(func() {
		fmt.Fprintln(os.Stderr, "screenbench: no live heap snapshots on this system (no SIGUSR1); kscope writes its heap profile when it quits")
	})
}
