package portforwards

import (
	"github.com/gdamore/tcell/v2"

	"kscope/ui"
	"kscope/ui/keymap"
)

// keys are the view's keys: its family of the key table (Spec.Keys).
var keys = struct{ Stop keymap.KeyDef }{
	Stop: keymap.NewKey("stop", keymap.Key(tcell.KeyCtrlD, "ctrl-d"), "stop the selected port-forward and free its port (asks first)"),
}

// Spec declares the view to the app (ui.Options.Registered): `:portforwards` (`:pf`) opens it over the
// session's forwards.
var Spec = ui.ScreenSpec{
	Keys: keymap.Family{Title: "Port-forwards view (:pf)", Screen: "ui/portforwards", Defs: []keymap.KeyDef{keys.Stop}},
	Commands: []ui.Command{{
		Names: []string{"pf", "portforwards"},
		Usage: "(port-forwards)",
		Run:   func(s ui.Session, _ []string) { s.Push(New(s, s.Forwards())) },
	}},
}
