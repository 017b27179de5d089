package contexts

import (
	"kscope/ui"
	"kscope/ui/keymap"
)

// Spec declares the screen to the app (ui.Options.Registered): it plays the kubeconfig's contexts (`:ctx`
// without a name). Its keys are kscope's (keymap.Keys.Contexts).
var Spec = ui.ScreenSpec{
	Keys:  keymap.Family{Screen: "ui/contexts"},
	Plays: ui.Roles{Contexts: New},
}
