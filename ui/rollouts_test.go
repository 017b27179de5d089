package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// stubRollouts is the tests' rollouts screen (the real one is package ui/rollouts): a line naming the
// workload, and its undo key, which asks the guard ui hands it, then records "undo" as the cluster's call.
func stubRollouts(nav Navigator, res discovery.Resource, row *watch.Row, guard WriteGuard) Screen {
	undo := stubRolloutsUndo.Bind(func() {
		guard.Permitted("undo "+res.Name+" "+row.Key+" to revision 1", func() {
			nav.Message("undo permitted")
		})
	}).WithDenied(guard.Denied)
	return &stubScreen{nav: nav, text: tview.NewTextView().SetText("rollouts stub of " + res.Name + " " + row.Name),
		keys: []keymap.Binding{undo}}
}

// TestRolloutsKey: the help of the deployments table lists shift-r; shift-r on a deployment opens the registered rollouts screen of the selected one (from the
// table and from its YAML view); it is not bound on pods; the guard ui hands the screen lets an undo through
// when the server says yes.
func TestRolloutsKey(t *testing.T) {
	h := startOnDeployments(t, nil)
	h.press(tcell.KeyRune, '?')
	h.eventually("the rollout history of a deployment")
	h.press(tcell.KeyRune, '?')
	h.press(tcell.KeyRune, 'R')
	h.eventually("rollouts stub of deployments web")
	h.press(tcell.KeyRune, 'u')
	h.eventually("undo permitted")
	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyRune, 'y')
	h.eventually("kind: Deployment")
	h.press(tcell.KeyRune, 'R')
	h.eventually("rollouts stub of deployments web")

	pods := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	pods.press(tcell.KeyRune, 'R')
	pods.lacks("rollouts stub")
}

// TestRolloutsUndoChecked: the rollouts screen's undo is refused in read-only mode before any question, and
// said not permitted when the server says no to patch on the workload.
func TestRolloutsUndoChecked(t *testing.T) {
	ro := startOnDeployments(t, func(o *Options) { o.ReadOnly = true })
	ro.press(tcell.KeyRune, 'R')
	ro.eventually("rollouts stub of deployments web")
	ro.press(tcell.KeyRune, 'u')
	ro.eventually("read-only mode: refusing to undo deployments shop/web to revision 1")
	ro.lacks("undo permitted")

	h := startOnDeployments(t, func(o *Options) { o.Cluster.(*fakeCluster).denied["patch deployments shop"] = true })
	h.press(tcell.KeyRune, 'R')
	h.eventually("rollouts stub of deployments web")
	h.press(tcell.KeyRune, 'u')
	h.eventually("not permitted: you may not undo deployments shop/web to revision 1")
	h.lacks("undo permitted")
}
