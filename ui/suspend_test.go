//go:build unix

package ui

import (
	"bufio"
	"os"
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"
)

// fdHandover does with file descriptor 2 what kube.StderrCapture does (its own test checks that one; ui
// cannot import kube): Pause points fd 2 at terminal, Resume at capture.
type fdHandover struct{ terminal, capture *os.File }

func (h fdHandover) Pause() error  { return unix.Dup2(int(h.terminal.Fd()), 2) }
func (h fdHandover) Resume() error { return unix.Dup2(int(h.capture.Fd()), 2) }

// TestSuspendGivesChildrenTheTerminalsStderr: while fd 2 is kscope's capture, a child run under suspend (a
// foreground plugin, a shell, an editor) writes its standard error to the terminal (a file stands in for
// it), not into the capture; what is written after the child is captured again.
func TestSuspendGivesChildrenTheTerminalsStderr(t *testing.T) {
	terminal, err := os.CreateTemp(t.TempDir(), "terminal")
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved, err := unix.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Dup2(saved, 2); _ = unix.Close(saved); r.Close(); w.Close() })
	if err := unix.Dup2(int(w.Fd()), 2); err != nil {
		t.Fatal(err)
	}
	h := start(t, 80, 20, func(o *Options) { o.Stderr = fdHandover{terminal: terminal, capture: w} })
	child := func(line string) {
		cmd := exec.Command("sh", "-c", `printf '%s\n' "$1" >&2`, "sh", line)
		fd, err := unix.Dup(2) // what fd 2 is now (under go test -json, os.Stderr is standard output)
		if err != nil {
			t.Error(err) // on the UI goroutine: no Fatal
			return
		}
		stderr := os.NewFile(uintptr(fd), "stderr")
		cmd.Stderr = stderr
		err = cmd.Run()
		stderr.Close()
		if err != nil {
			t.Error(err)
		}
	}
	var suspended bool
	h.quietly(func() { suspended = h.app.suspend(func() { child("Passphrase for key: ") }) })
	if !suspended {
		t.Fatal("suspend did not run the child")
	}
	child("a warning while the UI runs")
	if line, err := bufio.NewReader(r).ReadString('\n'); err != nil || line != "a warning while the UI runs\n" {
		t.Errorf("captured first %q (%v), want the line written after the child", line, err)
	}
	if text, _ := os.ReadFile(terminal.Name()); string(text) != "Passphrase for key: \n" {
		t.Errorf("the terminal got %q, want the child's prompt alone", text)
	}
}
