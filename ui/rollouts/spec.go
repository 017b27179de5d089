package rollouts

import (
	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/verbs"
	"kscope/watch"
)

// keys are the screen's keys: its opener on a workload, then its own, which act on the selected revision.
var keys = struct{ Rollouts, Diff, Undo keymap.KeyDef }{
	Rollouts: keymap.NewKey("rollouts", keymap.Shifted('R'),
		"the rollout history of a deployment, statefulset or daemonset: its revisions, their diffs, undo"),
	// Diff is named apart from the history view's "diff" (which keys.yaml does not rebind), so that a remap of
	// it reaches this view only.
	Diff: keymap.NewKey("revision diff", keymap.Key(tcell.KeyEnter, "enter"), "the selected revision's pod template against the current one"),
	Undo: keymap.NewKey("undo", keymap.Char('u'), "undo to the selected revision, as kubectl rollout undo --to-revision (asks first)"),
}

// Spec declares the screen to the app (ui.Options.Registered): shift-r on a deployment, statefulset or
// daemonset, in its table and in the views of one, opens it with the session's guard of a patch to it.
var Spec = ui.ScreenSpec{
	Keys: keymap.Family{Title: "Rollouts view (shift-r on a deployment, statefulset or daemonset)", Screen: "ui/rollouts",
		Defs: []keymap.KeyDef{keys.Rollouts, keys.Diff, keys.Undo}},
	Objects: []ui.ObjectKey{{
		Key:     keys.Rollouts,
		Applies: verbs.Restartable, // the workloads whose revisions kubectl rollout history lists
		Open: func(s ui.Session, res discovery.Resource, row *watch.Row) {
			s.Push(New(s, res, row, s.WriteGuard(res, row, "patch")))
		},
	}},
}
