package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestHistoryBackForwardAndLast(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.command("deploy")
	h.eventually("deployments(shop)")
	h.command("secrets")
	h.eventually("secrets(shop)")
	h.press(tcell.KeyRune, '[')
	h.eventually("deployments(shop)")
	h.press(tcell.KeyRune, '[')
	h.eventually("pods(shop)")
	h.press(tcell.KeyRune, '[')
	h.eventually("no earlier resource in the history")
	h.press(tcell.KeyRune, ']')
	h.eventually("deployments(shop)")
	h.press(tcell.KeyRune, ']')
	h.eventually("secrets(shop)")
	h.press(tcell.KeyRune, ']')
	h.eventually("no later resource in the history")

	h.press(tcell.KeyRune, '-') // the one before: deployments; again: back to secrets
	h.eventually("deployments(shop)")
	h.press(tcell.KeyRune, '-')
	h.eventually("secrets(shop)")
	h.press(tcell.KeyRune, '-')
	h.eventually("deployments(shop)")
	h.ui(func() {
		if n := len(h.app.stack); n != 2 {
			t.Errorf("stack of %d views, want the picker and one table", n)
		}
	})

	// opening a resource after going back drops the later entries
	h.press(tcell.KeyRune, '[')
	h.eventually("secrets(shop)")
	h.press(tcell.KeyRune, '[')
	h.eventually("deployments(shop)")
	h.command("cm")
	h.eventually("configmaps(shop)")
	h.press(tcell.KeyRune, ']')
	h.eventually("no later resource in the history")
}

func TestHistoryIsBounded(t *testing.T) {
	var hist viewHistory
	cat := fixtureCluster().catalog.Resources()
	for i := 0; i < 3*historyLimit; i++ {
		hist.record(cat[i%len(cat)])
	}
	if len(hist.entries) != historyLimit || hist.at != historyLimit-1 {
		t.Fatalf("%d entries at %d, want %d", len(hist.entries), hist.at, historyLimit)
	}
	hist.record(hist.entries[hist.at]) // the current one again: nothing new
	if len(hist.entries) != historyLimit {
		t.Fatalf("recording the current entry again added one")
	}
}
