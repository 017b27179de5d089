package verbs

import (
	"fmt"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// ContainerBindings are keymap.Keys.Containers' keys over the containers of row, a pod (res): logs and
// previous logs (bound only when logs is set: it opens container's logs), and the writes shell, attach
// and port-forward, asked about in access before they are offered and refused in read-only mode as the
// object keys are. Each acts on the container selected names when its key is pressed; selected returns false
// (having said why) when there is none. UI goroutine.
func (v *Verbs) ContainerBindings(res discovery.Resource, row *watch.Row, selected func() (string, bool), access *Access,
	logs func(container string, previous bool)) []keymap.Binding {
	on := func(fn func(container string)) func() {
		return func() {
			if c, ok := selected(); ok {
				fn(c)
			}
		}
	}
	write := func(d keymap.KeyDef, vb verb, start func(container string)) keymap.Binding {
		b := d.Bind(on(func(c string) {
			what := fmt.Sprintf("%s %s %s (container %s)", vb.key.Name, res.Name, row.Key, c)
			v.permitted(access, vb.need, res, row.Namespace, what, func() { start(c) })
		}))
		return b.WithDenied(func() bool {
			if v.ReadOnly() {
				return false
			}
			q := vb.need.query(res, row.Namespace)
			ans, ok := access.known(q)
			if !ok {
				access.ask(q, nil)
			}
			return ok && !ans.Allowed
		})
	}
	var keys []keymap.Binding
	if logs != nil {
		keys = append(keys,
			keymap.Keys.Containers.Logs.Bind(on(func(c string) { logs(c, false) })),
			keymap.Keys.Containers.PrevLogs.Bind(on(func(c string) { logs(c, true) })))
	}
	return append(keys,
		write(keymap.Keys.Containers.Shell, shellVerb, func(c string) { v.StartShellIn(row, c) }),
		write(keymap.Keys.Containers.Attach, attachVerb, func(c string) { v.StartAttachIn(row, c) }),
		write(keymap.Keys.Containers.PortForward, portForwardVerb, func(c string) { v.StartPortForwardTo(res, row, c) }),
	)
}
