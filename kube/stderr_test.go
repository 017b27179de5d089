//go:build unix

package kube

import (
	"os"
	"os/exec"
	"slices"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// TestStderrCapture: what the process and its children write to standard error while captured becomes lines
// (held until someone takes them), and standard error is itself again after Restore.
func TestStderrCapture(t *testing.T) {
	c, err := CaptureStderr(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := unix.Write(2, []byte("before the UI\n")); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	got2 := func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(got) }
	c.Deliver(func(l string) { mu.Lock(); got = append(got, l); mu.Unlock() })
	// A child process, as client-go starts a credential plugin: it inherits fd 2.
	cmd := exec.Command("sh", "-c", "echo 'plugin: opening a browser' >&2")
	stderr := stderrNow(t)
	cmd.Stderr = stderr
	err = cmd.Run()
	stderr.Close() // before Restore, which waits for every write end of the capture to close
	if err != nil {
		t.Fatal(err)
	}
	c.Restore()
	if want := []string{"before the UI", "plugin: opening a browser"}; !slices.Equal(got2(), want) {
		t.Errorf("captured %q, want %q", got2(), want)
	}
	c.Restore() // again: nothing
}

// TestStderrCapturePause: while paused, a child writes to the standard error kscope started with (here a
// file standing in for the terminal), not into the capture; after Resume the capture takes its lines again.
func TestStderrCapturePause(t *testing.T) {
	terminal, err := os.CreateTemp(t.TempDir(), "terminal")
	if err != nil {
		t.Fatal(err)
	}
	saved, err := unix.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Dup2(saved, 2); _ = unix.Close(saved) })
	if err := unix.Dup2(int(terminal.Fd()), 2); err != nil {
		t.Fatal(err)
	}
	c, err := CaptureStderr(nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	c.Deliver(func(l string) { mu.Lock(); got = append(got, l); mu.Unlock() })
	child := func(line string) {
		cmd := exec.Command("sh", "-c", "echo \"$1\" >&2", "sh", line)
		stderr := stderrNow(t)
		cmd.Stderr = stderr
		err := cmd.Run()
		stderr.Close() // Restore waits for every write end of the capture to close
		if err != nil {
			t.Fatal(err)
		}
	}
	child("captured before")
	if err := c.Pause(); err != nil {
		t.Fatal(err)
	}
	child("Password: ") // a prompt: the user must see it while the child waits
	if err := c.Pause(); err != nil {
		t.Fatal(err)
	}
	if err := c.Resume(); err != nil {
		t.Fatal(err)
	}
	child("captured after")
	c.Restore() // once everything written is read
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"captured before", "captured after"}; !slices.Equal(got, want) {
		t.Errorf("captured %q, want %q", got, want)
	}
	text, err := os.ReadFile(terminal.Name())
	if err != nil {
		t.Fatal(err)
	}
	if string(text) != "Password: \n" {
		t.Errorf("the terminal got %q, want the child's prompt alone", text)
	}
}

// stderrNow is a file for what file descriptor 2 refers to now (a child given it inherits that), to close
// after use. Not os.Stderr: under go test -json the testing package points os.Stderr at standard output.
func stderrNow(t *testing.T) *os.File {
	t.Helper()
	fd, err := unix.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	return os.NewFile(uintptr(fd), "stderr")
}
