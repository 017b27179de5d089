package ui

import (
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// ContainerView is what ui hands the containers screen of one pod (TableScreens.Containers): the keys that act
// on one of its containers. A plain value made for one screen; its funcs run on the UI goroutine.
type ContainerView struct {
	// Keys are keymap.Keys.Containers' (logs, previous logs, and the writes shell, attach and port-forward,
	// asked about before they are offered and refused in read-only mode, as the object keys are), each acting
	// on the container selected names when a key is pressed; selected returns false (having said why) when there is
	// none. The logs keys are bound only with a logs screen registered.
	Keys func(selected func() (container string, ok bool)) []keymap.Binding
}

// containerView is the ContainerView of row, a pod (res), for one screen: one access cache for its life.
func (a *App) containerView(res discovery.Resource, row *watch.Row) ContainerView {
	access := a.newAccess()
	var logs func(container string, previous bool)
	if open := a.opts.Screens.Logs; open != nil { // a screen of its own package (TableScreens)
		logs = func(container string, previous bool) {
			settings := a.opts.logSettings()
			settings.Container = container
			open(a, res, row, previous, settings)
		}
	}
	return ContainerView{Keys: func(selected func() (string, bool)) []keymap.Binding {
		return a.verbs.ContainerBindings(res, row, selected, access, logs)
	}}
}

// openContainers pushes the registered containers screen (TableScreens.Containers) of row, a pod (res); it
// tells whether there is one.
func (a *App) openContainers(res discovery.Resource, row *watch.Row) bool {
	open := a.opts.Screens.Containers
	if open == nil {
		return false
	}
	a.Push(open(a, res, row, a.containerView(res, row)))
	return true
}
