//go:build unix

package kube

import (
	"os"

	"golang.org/x/sys/unix"
)

// redirectStderr points file descriptor 2 at w. It returns the original standard error (a new descriptor)
// and the function that points fd 2 back at it and closes it.
func redirectStderr(w *os.File) (orig *os.File, restore func() error, err error) {
	saved, err := unix.Dup(2)
	if err != nil {
		return nil, nil, err
	}
	if err := unix.Dup2(int(w.Fd()), 2); err != nil {
		unix.Close(saved)
		return nil, nil, err
	}
	orig = os.NewFile(uintptr(saved), "stderr")
	return orig, func() error {
		defer orig.Close()
		return unix.Dup2(saved, 2)
	}, nil
}
