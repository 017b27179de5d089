//go:build unix

package verbs

import (
	"io"
	"os"
	"syscall"
)

// shellInput returns the process's standard input for a shell, as a reader whose pending read stop ends:
// the stream's copy of stdin would otherwise stay blocked in a read after the shell exits and take the
// user's next key from the TUI. Call stop once, after the shell has exited.
func shellInput() (in io.Reader, stop func()) { return cancellableInput(os.Stdin) }

// cancellableInput reads a non-blocking duplicate of file through Go's poller; stop closes it (a pending
// read returns io.EOF) and puts file back into blocking mode. When file cannot be set up so, it is returned
// as is.
func cancellableInput(file *os.File) (in io.Reader, stop func()) {
	fd, err := syscall.Dup(int(file.Fd()))
	if err != nil {
		return file, func() {}
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		_ = syscall.Close(fd)
		return file, func() {}
	}
	f := os.NewFile(uintptr(fd), file.Name())
	return eofOnClose{f}, func() {
		_ = f.Close()
		_ = syscall.SetNonblock(int(file.Fd()), false)
	}
}

// eofOnClose reads r, ending with io.EOF once it is closed (the stream then half-closes stdin quietly).
type eofOnClose struct{ f *os.File }

func (r eofOnClose) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	if err != nil && err != io.EOF {
		return n, io.EOF
	}
	return n, err
}
