package logview

import (
	"kscope/ui"
	"kscope/ui/keymap"
)

// Spec declares the view to the app (ui.Options.Registered): it plays the logs of an object (l and p on the
// selected object and container). Its keys are kscope's (keymap.Keys.Logs).
var Spec = ui.ScreenSpec{
	Keys:  keymap.Family{Screen: "ui/logview"},
	Plays: ui.Roles{Logs: Open},
}
