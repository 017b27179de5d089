package ui

import (
	"context"
	"errors"
	"fmt"
	"kscope/cluster"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

func TestHelp(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.press(tcell.KeyRune, '?')
	h.golden("help_100x30")
	h.press(tcell.KeyEscape, 0)
	h.contains("pods(shop)[3]")
}

func TestQuit(t *testing.T) {
	for _, k := range []struct {
		key tcell.Key
		r   rune
	}{{tcell.KeyRune, 'q'}, {tcell.KeyCtrlC, 0}} {
		h := start(t, 80, 24, func(o *Options) { o.Resource = "pods" })
		h.app.tv.QueueEvent(tcell.NewEventKey(k.key, k.r, tcell.ModNone))
		select {
		case err := <-h.done:
			if err != nil {
				t.Errorf("quit returned %v", err)
			}
			h.done <- nil // for Cleanup
		case <-time.After(5 * time.Second):
			t.Fatalf("%v did not quit", k)
		}
	}
}

func TestPanicStopsUIWithError(t *testing.T) {
	h := start(t, 80, 24, nil)
	h.app.Go(func() { panic("boom") })
	select {
	case err := <-h.done:
		if err == nil || err.Error() != "internal error: boom" {
			t.Errorf("Run returned %v", err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("a panic did not stop the UI")
	}
}

func TestContextSwitch(t *testing.T) {
	other := fixtureCluster()
	other.info.Context = "viewer"
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Connect = func(_ context.Context, name string) (cluster.Interface, error) {
			if name != "viewer" {
				return nil, fmt.Errorf("context %q does not exist", name)
			}
			return other, nil
		}
	})
	h.typeText(":ctx nope\n")
	waitFor(t, h, "context nope: context \"nope\" does not exist")
	h.typeText(":ctx viewer\n")
	waitFor(t, h, "Context: viewer")
	h.contains("resources[9]")
}

// waitFor waits for the screen to show s, failing the test at once if it never does.
func waitFor(t *testing.T, h *harness, s string) {
	t.Helper()
	if !h.eventually(s) {
		t.FailNow()
	}
}

func TestPanicOnUIGoroutineStopsUIWithError(t *testing.T) {
	h := start(t, 80, 24, nil)
	go h.app.tv.QueueUpdate(func() { panic("bad draw") })
	select {
	case err := <-h.done:
		var perr *PanicError
		if !errors.As(err, &perr) || perr.Error() != "internal error: bad draw" || len(perr.Stack) == 0 {
			t.Errorf("Run returned %v", err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("a panic did not stop the UI")
	}
}

// TestNoticeShowsOnThePromptLine: lines kscope's standard error took while the UI runs (a credential
// plugin's message) are shown on the prompt line, never drawn over the screen; many at once show the last.
func TestNoticeShowsOnThePromptLine(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.app.Notice("plugin: token refreshed")
	waitFor(t, h, "plugin: token refreshed")
	for i := range 300 {
		h.app.Notice(fmt.Sprintf("line %d", i))
	}
	waitFor(t, h, "line 299")
}
