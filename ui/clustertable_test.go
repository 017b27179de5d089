package ui

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/cluster"
)

// TestClustersTableRoutesKeysToTheRowsCluster: `:pods @admin,@viewer` shows both clusters' pods in one table
// with a CONTEXT column and a word per cluster; delete on the viewer cluster's row asks that cluster (which
// refuses it, RBAC) and on the admin cluster's row deletes there only, the question naming the context; an
// unknown context is one line.
func TestClustersTableRoutesKeysToTheRowsCluster(t *testing.T) {
	other := fixtureCluster()
	other.info.Context = "viewer"
	other.denied = map[string]bool{"delete pods shop": true}
	h := start(t, 140, 30, func(o *Options) {
		o.Resource = "pods"
		o.Connect = func(_ context.Context, name string) (cluster.Interface, error) {
			if name == "viewer" {
				return other, nil
			}
			return nil, errors.New("no such context")
		}
	})
	h.eventually("pods(shop)")
	h.command("pods @nope")
	h.eventually(`no context "nope" in the kubeconfig (contexts: admin, viewer)`)

	h.command("pods @admin,@viewer")
	h.eventually("admin synced · viewer synced")
	h.contains("CONTEXT")
	h.press(tcell.KeyDown, 0) // the viewer cluster's row of the first pod (ties sort by cluster)
	h.press(tcell.KeyCtrlD, 0)
	h.eventually("not permitted: you may not delete pods")
	if h.app.modal != nil || len(other.deleted()) != 0 || len(h.cluster.deleted()) != 0 {
		t.Fatalf("delete refused by the viewer cluster: modal %v, deletes %q %q", h.app.modal != nil, other.deleted(), h.cluster.deleted())
	}
	h.press(tcell.KeyUp, 0) // the admin cluster's row of that pod
	h.press(tcell.KeyCtrlD, 0)
	h.waitDialog("context admin: Delete pods")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.until("the delete", func() bool { return len(h.cluster.deleted()) == 1 })
	if d := other.deleted(); len(d) != 0 || !slices.Equal(h.cluster.deleted()[:1], h.cluster.deleted()) {
		t.Fatalf("deletes: admin %q, viewer %q", h.cluster.deleted(), d)
	}
}

// TestPanicConnectingAMemberStopsUIWithError: the goroutine that connects a table's other cluster goes
// through the session's supervisor: a panic there stops the UI and Run returns it; the process does not crash.
func TestPanicConnectingAMemberStopsUIWithError(t *testing.T) {
	h := start(t, 140, 30, func(o *Options) {
		o.Resource = "pods"
		o.Connect = func(context.Context, string) (cluster.Interface, error) { panic("bad kubeconfig") }
	})
	h.eventually("pods(shop)")
	h.burst(":pods @admin,@viewer\n") // (not command: the UI stops before the table opens)
	var perr *PanicError
	if err := h.stopped("a panic connecting a member"); !errors.As(err, &perr) || perr.Error() != "internal error: bad kubeconfig" {
		t.Errorf("Run returned %v, want the panic", err)
	}
}
