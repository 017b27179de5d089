package cli

//go:generate go test -run TestREADMEKeys -update .

import (
	"kscope/ui"
	"kscope/ui/changes"
	"kscope/ui/containers"
	"kscope/ui/contexts"
	helmscreens "kscope/ui/helm"
	"kscope/ui/logview"
	"kscope/ui/objectview"
	"kscope/ui/portforwards"
	"kscope/ui/pulse"
	"kscope/ui/rollouts"
	"kscope/ui/treeview"
	"kscope/ui/versions"
)

// registered are the screens in packages of their own, which declare themselves (ui.ScreenSpec: their
// commands, keys and the roles they play): one line each, the only place a screen is named.
func registered() []ui.ScreenSpec {
	return []ui.ScreenSpec{
		objectview.Spec,
		versions.Spec,
		logview.Spec,
		containers.Spec,
		contexts.Spec,
		portforwards.Spec,
		changes.Spec,
		rollouts.Spec,
		treeview.Spec,
		pulse.Spec,
		helmscreens.Spec,
	}
}
