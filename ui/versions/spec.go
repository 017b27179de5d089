package versions

import (
	"kscope/ui"
	"kscope/ui/keymap"
)

// Spec declares the screens to the app (ui.Options.Registered): they play the history of an object (h in a
// table and in a YAML view) and its blame (b in a YAML view). Their keys are kscope's (keymap.Keys.Versions).
var Spec = ui.ScreenSpec{
	Keys:  keymap.Family{Screen: "ui/versions"},
	Plays: ui.Roles{History: NewHistory, Blame: NewBlame},
}
