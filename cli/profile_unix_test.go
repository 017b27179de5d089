//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestProfileSignals: a profiled run handles the signals that end kscope, and SIGUSR1 only with --memprofile
// (without it SIGUSR1 keeps its default action).
func TestProfileSignals(t *testing.T) {
	for _, tc := range []struct {
		name      string
		snapshots bool
		want      []os.Signal
	}{
		{"cpu or trace only", false, []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT}},
		{"memprofile", true, []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGUSR1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := profileSignals(tc.snapshots); !slices.Equal(got, tc.want) {
				t.Errorf("profileSignals(%v) = %v, want %v", tc.snapshots, got, tc.want)
			}
		})
	}
	if got := profileSignals(true); len(endSignals) != 3 || &got[0] == &endSignals[0] {
		t.Errorf("profileSignals shares or changed endSignals (%v)", endSignals)
	}
}

// TestMemprofileSnapshotOnSIGUSR1: with --memprofile, each SIGUSR1 writes the live heap to the next FILE.N
// while the run goes on, and the profile at exit is still written.
func TestMemprofileSnapshotOnSIGUSR1(t *testing.T) {
	mem := filepath.Join(t.TempDir(), "mem.pprof")
	p := &profiling{memPath: mem}
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
			t.Fatal(err)
		}
		snap := mem + "." + string(rune('0'+n))
		deadline := time.Now().Add(10 * time.Second)
		for {
			if fi, err := os.Stat(snap); err == nil && fi.Size() > 20 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("SIGUSR1 number %d wrote no snapshot to %s", n, filepath.Base(snap))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if err := p.stop(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(mem); err != nil || fi.Size() == 0 {
		t.Fatalf("heap profile at exit not written (%v)", err)
	}
}
