package ui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/verbs"
	"kscope/watch"
)

// stubForwards is the tests' :pf screen, registered as the real one (package ui/portforwards, which imports
// ui) declares itself: a line counting the session's forwards.
var stubForwards = ScreenSpec{Commands: []Command{{Names: []string{"pf", "portforwards"}, Run: func(s Session, _ []string) {
	s.Push(&stubScreen{nav: s, text: tview.NewTextView().SetText(fmt.Sprintf("forwards stub of %d", len(s.Forwards().Items())))})
}}}}

// stubContexts is the tests' contexts screen (the real one is package ui/contexts): a line counting the
// contexts list gave.
func stubContexts(nav Navigator, list func() ([]cluster.KubeContext, error), _ func(string)) Screen {
	contexts, err := list()
	return &stubScreen{nav: nav, text: tview.NewTextView().SetText(fmt.Sprintf("contexts stub of %d (%v)", len(contexts), err))}
}

// stubScreens are the screens the harness registers, as the program registers the real ones (cli/screens.go):
// the first plays every role (stubRoles; a test sets one of its roles as o.Registered[0].Plays.History).
func stubScreens() []ScreenSpec {
	return []ScreenSpec{stubRoles(), stubForwards, stubRolloutsSpec, treeSpec(stubTree), pulseSpec(stubPulse)}
}

// stubRoles is the tests' screen of every role (the real ones are packages ui/objectview, ui/versions,
// ui/logview, ui/containers and ui/contexts), its keys kscope's.
func stubRoles() ScreenSpec {
	return ScreenSpec{Keys: keymap.Family{Screen: "ui/stubroles"}, Plays: Roles{YAML: stubYAML, Describe: stubDescribe,
		History: stubHistory, Blame: stubBlame, Logs: stubLogs, Contexts: stubContexts}}
}

// The keys of the tests' tree and rollouts screens, as the real ones (packages ui/treeview and ui/rollouts)
// declare them.
var (
	stubTreeKey  = keymap.NewKey("tree", keymap.Char('t'), "the object's owners up to the root and everything it owns, with their health, live")
	stubTreeOpen = keymap.NewKey("open", keymap.Key(tcell.KeyEnter, "enter"), "the selected object's YAML, live")
	stubTreeYAML = keymap.NewKey("yaml", keymap.Char('y'), "the selected object's YAML, live")

	stubRolloutsKey = keymap.NewKey("rollouts", keymap.Shifted('R'),
		"the rollout history of a deployment, statefulset or daemonset: its revisions, their diffs, undo")
	stubRolloutsUndo = keymap.NewKey("undo", keymap.Char('u'), "undo to the selected revision, as kubectl rollout undo --to-revision (asks first)")
)

// treeSpec is the tests' tree screen declared as package ui/treeview declares the real one: t on any object
// opens what open returns, or says its error on the prompt line.
func treeSpec(open func(s Session, res discovery.Resource, row *watch.Row) (Screen, error)) ScreenSpec {
	return ScreenSpec{
		Keys: keymap.Family{Title: "Tree view", Screen: "ui/treeview", Defs: []keymap.KeyDef{stubTreeKey, stubTreeOpen, stubTreeYAML}},
		Objects: []ObjectKey{{Key: stubTreeKey, Open: func(s Session, res discovery.Resource, row *watch.Row) {
			scr, err := open(s, res, row)
			if err != nil {
				s.Errorf("%s", err)
				return
			}
			s.Push(scr)
		}}},
	}
}

// stubRolloutsSpec is the tests' rollouts screen declared as package ui/rollouts declares the real one:
// shift-r on a deployment, statefulset or daemonset opens stubRollouts with the session's guard.
var stubRolloutsSpec = ScreenSpec{
	Keys: keymap.Family{Title: "Rollouts view", Screen: "ui/rollouts", Defs: []keymap.KeyDef{stubRolloutsKey, stubRolloutsUndo}},
	Objects: []ObjectKey{{Key: stubRolloutsKey,
		Applies: verbs.Restartable,
		Open: func(s Session, res discovery.Resource, row *watch.Row) {
			s.Push(stubRollouts(s, res, row, s.WriteGuard(res, row, "patch")))
		}}},
}
