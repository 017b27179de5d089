package watch

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time this process has used (user + kernel, all threads); 0 when the system does
// not say.
func cpuTime() time.Duration {
	h, err := syscall.GetCurrentProcess()
	if err != nil {
		return 0
	}
	var created, exited, kernel, user syscall.Filetime
	if err := syscall.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return 0
	}
	// A Filetime counts 100 ns intervals; Nanoseconds would read kernel and user as dates since 1601.
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100)
}
