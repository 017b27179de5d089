package objectview

import (
	"kscope/ui"
	"kscope/ui/keymap"
)

// Spec declares the views to the app (ui.Options.Registered): they play the YAML of an object (y and enter
// in a table, y in the describe view and the tree) and its description (d on the selected object). Their
// keys are kscope's (keymap.Keys.YAML, Describe).
var Spec = ui.ScreenSpec{
	Keys:  keymap.Family{Screen: "ui/objectview"},
	Plays: ui.Roles{YAML: NewYAMLView, Describe: NewDescribeView},
}
