//go:build unix

package verbs

import (
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// TestCancellableInputEndsPendingRead: what is written arrives; stop ends a read still waiting (so that it
// takes no later key from the TUI) with io.EOF and leaves the file blocking and readable.
func TestCancellableInputEndsPendingRead(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	in, stop := cancellableInput(r)
	if _, err := w.Write([]byte("ls\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := in.Read(buf); err != nil || string(buf[:n]) != "ls\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := in.Read(buf)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond) // the read is pending
	stop()
	select {
	case err := <-done:
		if err != io.EOF {
			t.Errorf("pending read ended with %v, want io.EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("stop did not end the pending read")
	}
	if _, err := w.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	n, err := r.Read(buf) // the key after the shell goes to whoever reads the file next
	if err != nil || string(buf[:n]) != "q" {
		t.Errorf("after stop the file reads %q, %v", buf[:n], err)
	}
	var nonblocking bool
	if flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, r.Fd(), syscall.F_GETFL, 0); errno == 0 {
		nonblocking = flags&syscall.O_NONBLOCK != 0
	}
	if nonblocking {
		t.Error("the file was left non-blocking")
	}
}
