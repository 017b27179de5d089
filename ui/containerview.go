package ui

import (
	"fmt"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// ContainerView is what ui hands the containers screen of one pod (TableScreens.Containers): the keys that act
// on one of its containers. A plain value made for one screen; its funcs run on the UI goroutine.
type ContainerView struct {
	// Keys are keymap.Keys.Containers' (logs, previous logs, and the writes shell and port-forward, asked about
	// before they are offered and refused in read-only mode, as the object keys are), each acting on the
	// container selected names when a key is pressed; selected returns false (having said why) when there is
	// none. The logs keys are bound only with a logs screen registered.
	Keys func(selected func() (container string, ok bool)) []keymap.Binding
}

// containerView is the ContainerView of row, a pod (res), for one screen: one access cache for its life.
func (a *App) containerView(res discovery.Resource, row *watch.Row) ContainerView {
	access := newAccessCache(a)
	return ContainerView{Keys: func(selected func() (string, bool)) []keymap.Binding {
		on := func(fn func(container string)) func() {
			return func() {
				if c, ok := selected(); ok {
					fn(c)
				}
			}
		}
		write := func(d keymap.KeyDef, v verb, start func(container string)) keymap.Binding {
			b := d.Bind(on(func(c string) {
				what := fmt.Sprintf("%s %s %s (container %s)", v.key.Name, res.Name, row.Key, c)
				a.permitted(access, v.need, res, row.Namespace, what, func() { start(c) })
			}))
			return b.WithDenied(func() bool {
				if a.opts.ReadOnly {
					return false
				}
				q := v.need.query(res, row.Namespace)
				ans, ok := access.known(q)
				if !ok {
					access.ask(q, nil)
				}
				return ok && !ans.Allowed
			})
		}
		var keys []keymap.Binding
		if open := a.opts.Screens.Logs; open != nil { // a screen of its own package (TableScreens)
			logs := func(previous bool) func(string) {
				return func(c string) {
					settings := a.opts.logSettings()
					settings.Container = c
					open(a, res, row, previous, settings)
				}
			}
			keys = append(keys, keymap.Keys.Containers.Logs.Bind(on(logs(false))), keymap.Keys.Containers.PrevLogs.Bind(on(logs(true))))
		}
		return append(keys,
			write(keymap.Keys.Containers.Shell, shellVerb, func(c string) { a.startShellIn(row, c) }),
			write(keymap.Keys.Containers.PortForward, portForwardVerb, func(c string) { a.startPortForwardTo(res, row, c) }),
		)
	}}
}

// openContainers pushes the registered containers screen (TableScreens.Containers) of row, a pod (res); it
// tells whether there is one.
func (a *App) openContainers(res discovery.Resource, row *watch.Row) bool {
	open := a.opts.Screens.Containers
	if open == nil {
		return false
	}
	a.push(open(a, res, row, a.containerView(res, row)))
	return true
}
