package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStartedComponentsHoldNoInheritedDescriptor: a descriptor devcluster inherited (as a caller's flock
// lock is) is not passed on to a component it starts, which would hold the lock as long as it runs.
func TestStartedComponentsHoldNoInheritedDescriptor(t *testing.T) {
	dir := t.TempDir()
	l := newLayout(filepath.Join(dir, "cache"))
	if err := os.MkdirAll(l.stateDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.Create(filepath.Join(dir, "held.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	// As inherited from flock(1): open across exec.
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, lock.Fd(), syscall.F_SETFD, 0); errno != 0 {
		t.Fatal(errno)
	}
	if _, err := startProcess(l, "probe", "id", "/bin/sh", nil, "-c", "ls -l /proc/$$/fd"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, _ := os.ReadFile(l.logFile("probe"))
		if strings.Contains(string(out), "held.lock") {
			t.Fatalf("the component inherited the lock's descriptor:\n%s", out)
		}
		if strings.Contains(string(out), "log") { // its own log file, on stdout and stderr
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the component listed no descriptors within 30 s: %q", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
