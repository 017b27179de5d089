//go:build unix

package cli

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// recordingUI takes the signals it is sent, except SIGINT (as the UI does while a child has the terminal).
type recordingUI struct{ got chan os.Signal }

func (r recordingUI) Signal(sig os.Signal) bool {
	r.got <- sig
	return sig != syscall.SIGINT
}

// TestEndOnSignals: while the UI runs, SIGINT, SIGHUP and SIGTERM go to the UI instead of ending the process;
// the first the UI took is what stop returns, and kscope exits with 128 plus its number, as a shell expects.
func TestEndOnSignals(t *testing.T) {
	ui := recordingUI{got: make(chan os.Signal, 3)}
	stop := endOnSignals(ui)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGHUP, syscall.SIGTERM} {
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-ui.got:
			if got != sig {
				t.Fatalf("the UI got %v, want %v", got, sig)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%v never reached the UI", sig)
		}
	}
	sig := stop()
	if sig != syscall.SIGHUP {
		t.Fatalf("stop returned %v, want the first signal the UI took (hangup)", sig)
	}
	if code := exitCode(signalExit(sig)); code != 129 {
		t.Errorf("exit code %d after SIGHUP, want 129", code)
	}
	if code := exitCode(signalExit(syscall.SIGTERM)); code != 143 {
		t.Errorf("exit code %d after SIGTERM, want 143", code)
	}
}
