package ui

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"

	"kscope/spawn"
	"kscope/watch"
)

// stopped waits for Run to return and gives its error (and puts it back for the harness's cleanup).
func (h *harness) stopped(what string) error {
	h.t.Helper()
	select {
	case err := <-h.done:
		h.done <- err
		return err
	case <-time.After(5 * time.Second):
		h.t.Fatalf("the UI did not stop after %s", what)
		return nil
	}
}

// TestPanicBelowTheUIStopsUIWithError: a panic on a goroutine a package below the UI started with the
// supervisor's Func (here watch.WatchObject's, on a read that panics) stops the UI, which restores the
// terminal, and Run returns the panic with its stack; the process does not crash.
func TestPanicBelowTheUIStopsUIWithError(t *testing.T) {
	sup := spawn.NewSupervisor()
	h := start(t, 80, 24, func(o *Options) { o.Supervisor = sup })
	client := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())
	client.PrependReactor("get", "configmaps", func(k8stesting.Action) (bool, runtime.Object, error) {
		panic("bad decode")
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	watch.WatchObject(ctx, client, schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, "shop", "cfg",
		sup.Func())
	var perr *PanicError
	if err := h.stopped("a panic on a watch's goroutine"); !errors.As(err, &perr) ||
		perr.Error() != "internal error: bad decode" || len(perr.Stack) == 0 {
		t.Errorf("Run returned %v, want the panic", err)
	}
}

// TestPanicOnGoSafeStopsUIWithError: the UI's own goroutines go through the same supervisor.
func TestPanicOnGoSafeStopsUIWithError(t *testing.T) {
	h := start(t, 80, 24, nil)
	h.app.Go(func() { panic("bad request") })
	var perr *PanicError
	if err := h.stopped("a panic on goSafe"); !errors.As(err, &perr) || perr.Error() != "internal error: bad request" {
		t.Errorf("Run returned %v, want the panic", err)
	}
}

// TestSignalStopsUI: SIGTERM (or SIGHUP, or SIGINT outside a child) stops the UI; Run returns no error.
func TestSignalStopsUI(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		h := start(t, 80, 24, nil)
		if !h.app.Signal(sig) {
			t.Errorf("%v was not taken", sig)
		}
		if err := h.stopped(sig.String()); err != nil {
			t.Errorf("%v: Run returned %v", sig, err)
		}
	}
}

// TestSignalWhileAChildHasTheTerminal: ctrl-c's SIGINT, which reaches kscope too while a child has the
// terminal, is the child's: kscope goes on. SIGTERM then cancels the session's work at once and stops the
// UI once the child returns; no other child starts.
func TestSignalWhileAChildHasTheTerminal(t *testing.T) {
	h := start(t, 80, 24, nil)
	var intTaken, termTaken, cancelled, second bool
	h.quietly(func() {
		h.app.suspend(func() {
			intTaken = h.app.Signal(syscall.SIGINT)
			termTaken = h.app.Signal(syscall.SIGTERM)
			cancelled = h.app.ctx.Err() != nil
		})
		h.app.suspend(func() { second = true })
	})
	if intTaken || !termTaken || !cancelled || second {
		t.Errorf("SIGINT taken %v (want false), SIGTERM taken %v, work cancelled %v, another child ran %v",
			intTaken, termTaken, cancelled, second)
	}
	if err := h.stopped("SIGTERM during a child"); err != nil {
		t.Errorf("Run returned %v", err)
	}
}
