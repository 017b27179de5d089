package cli

//go:generate go test -run TestREADMEKeys -update .

import (
	"kscope/ui"
	"kscope/ui/changes"
	helmscreens "kscope/ui/helm"
	"kscope/ui/portforwards"
	"kscope/ui/pulse"
	"kscope/ui/rollouts"
	"kscope/ui/treeview"
)

// registered are the screens in packages of their own that declare themselves (ui.ScreenSpec: their
// commands and keys): one line each, the only place a new screen of that kind is named.
func registered() []ui.ScreenSpec {
	return []ui.ScreenSpec{
		portforwards.Spec,
		changes.Spec,
		rollouts.Spec,
		treeview.Spec,
		pulse.Spec,
		helmscreens.Spec,
	}
}
