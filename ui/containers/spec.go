package containers

import (
	"kscope/ui"
	"kscope/ui/keymap"
)

// Spec declares the screen to the app (ui.Options.Registered): it plays the containers of a pod (enter on a
// pod). Its keys are kscope's (keymap.Keys.Containers).
var Spec = ui.ScreenSpec{
	Keys:  keymap.Family{Screen: "ui/containers"},
	Plays: ui.Roles{Containers: New},
}
