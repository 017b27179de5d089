//go:build unix

package kube

import (
	"os"
	"os/exec"
	"slices"
	"sync"
	"testing"
)

// TestStderrCapture: what the process and its children write to standard error while captured becomes lines
// (held until someone takes them), and standard error is itself again after Restore.
func TestStderrCapture(t *testing.T) {
	c, err := CaptureStderr()
	if err != nil {
		t.Fatal(err)
	}
	os.Stderr.WriteString("before the UI\n")
	var mu sync.Mutex
	var got []string
	got2 := func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(got) }
	c.Deliver(func(l string) { mu.Lock(); got = append(got, l); mu.Unlock() })
	// A child process, as client-go starts a credential plugin: it inherits fd 2.
	cmd := exec.Command("sh", "-c", "echo 'plugin: opening a browser' >&2")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	c.Restore()
	if want := []string{"before the UI", "plugin: opening a browser"}; !slices.Equal(got2(), want) {
		t.Errorf("captured %q, want %q", got2(), want)
	}
	c.Restore() // again: nothing
}
