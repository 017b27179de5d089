//go:build unix

package kube

import (
	"os"

	"golang.org/x/sys/unix"
)

// dupStderr returns a new descriptor for what file descriptor 2 refers to now.
func dupStderr() (*os.File, error) {
	fd, err := unix.Dup(2)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "stderr"), nil
}

// pointStderr makes file descriptor 2 refer to f's file.
func pointStderr(f *os.File) error { return unix.Dup2(int(f.Fd()), 2) }
