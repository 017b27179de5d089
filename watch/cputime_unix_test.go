//go:build unix

package watch

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time this process has used (user + system, all threads); 0 when the system does
// not say.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
