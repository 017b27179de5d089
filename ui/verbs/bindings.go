package verbs

import (
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// SubjectFunc returns the resource and row the object keys act on, and whether there is one.
type SubjectFunc func() (discovery.Resource, *watch.Row, bool)

// ScopeFunc returns, without side effects, the resource and namespace the object keys act in now: what the
// access questions asked before a verb is offered are about.
type ScopeFunc func() (discovery.Resource, string)

// Screens are the app's openers among the object keys, each bound only when set: they open screens of
// the object the keys act on (describe, logs, events, and the registered screens'); logs gets whether the
// previous container's.
type Screens struct {
	Describe func(discovery.Resource, *watch.Row)
	Logs     func(res discovery.Resource, row *watch.Row, previous bool)
	Events   func(discovery.Resource, *watch.Row)
	// More are the keys of the screens registered in packages of their own (ui.ScreenSpec.Objects), bound
	// after kscope's own where they apply.
	More []Opener
}

// Opener is a key that opens a screen of the object the keys act on.
type Opener struct {
	Key keymap.KeyDef
	// Applies tells whether it is bound on the objects of a resource (nil: every resource's).
	Applies func(discovery.Resource) bool
	Open    func(discovery.Resource, *watch.Row)
}

// Bindings are the keys that act on one object, the one subject returns: describe, edit, scale (on a pod:
// shell; on a cronjob: suspend), restart (on a node: drain), delete, the node's and the workloads' own
// verbs, attach (pods), debug (pods and nodes), logs, port-forward (pods, services, deployments), owner, events,
// the registered screens'; the openers where open has them. The writes are asked about in access before they are offered (a key the server refuses says so:
// Binding.Denied). The keys depend on scope's resource, never on the object. UI goroutine.
func (v *Verbs) Bindings(subject SubjectFunc, scope ScopeFunc, access *Access, open Screens) []keymap.Binding {
	return v.TableBindings(subject, nil, scope, access, open)
}

// TableBindings are Bindings for a table whose rows may be marked: while marked returns rows, delete, kill,
// scale and restart act on them (runMarked: one question, each row's own precondition and access check, one
// outcome line); the other keys act on subject. UI goroutine.
func (v *Verbs) TableBindings(subject SubjectFunc, marked MarkedFunc, scope ScopeFunc, access *Access, open Screens) []keymap.Binding {
	with := func(fn func(discovery.Resource, *watch.Row)) func() {
		return func() {
			if res, row, ok := subject(); ok {
				fn(res, row)
			}
		}
	}
	write := func(vb verb) keymap.Binding {
		one := with(func(res discovery.Resource, row *watch.Row) { vb.run(v, access, res, row) })
		b := vb.key.Bind(func() {
			if mv, ok := many(vb); ok && marked != nil {
				if targets := marked(); len(targets) > 0 {
					v.runMarked(vb, mv, access, targets)
					return
				}
			}
			one()
		})
		return b.WithDenied(func() bool {
			res, ns := scope()
			if v.ReadOnly() || vb.applies(res) != nil {
				return false
			}
			q := vb.need.query(res, vb.namespace(v, ns))
			ans, ok := access.known(q)
			if !ok {
				access.ask(q, nil)
			}
			return ok && !ans.Allowed
		})
	}
	res, _ := scope()
	s, r := scaleVerb, restartVerb
	switch {
	case isPods(res):
		s = shellVerb
	case isCronJobs(res):
		s = suspendVerb
	case isNodes(res):
		r = drainVerb
	}
	var keys []keymap.Binding
	if open.Describe != nil {
		keys = append(keys, keymap.Keys.Object.Describe.Bind(with(open.Describe)))
	}
	keys = append(keys,
		write(editVerb),
		write(s),
		write(r),
		write(deleteVerb),
	)
	switch {
	case isNodes(res):
		keys = append(keys, write(cordonVerb), write(uncordonVerb), write(debugNodeVerb))
	case isCronJobs(res):
		keys = append(keys, write(triggerVerb))
	case isPods(res):
		keys = append(keys, write(attachVerb), write(killVerb), write(debugVerb))
	}
	if imageSettable(res) == nil {
		keys = append(keys, write(setImageVerb))
	}
	keys = append(keys, write(labelVerb))
	if logs := open.Logs; logs != nil {
		keys = append(keys,
			keymap.Keys.Object.Logs.Bind(with(func(res discovery.Resource, row *watch.Row) { logs(res, row, false) })),
			keymap.Keys.Object.PrevLogs.Bind(with(func(res discovery.Resource, row *watch.Row) { logs(res, row, true) })))
	}
	if forwardable(res) == nil {
		keys = append(keys, write(portForwardVerb))
	}
	keys = append(keys, keymap.Keys.Object.Owner.Bind(with(v.jumpToOwner)))
	if open.Events != nil {
		keys = append(keys, keymap.Keys.Object.Events.Bind(with(open.Events)))
	}
	for _, o := range open.More {
		if o.Applies == nil || o.Applies(res) {
			keys = append(keys, o.Key.Bind(with(o.Open)))
		}
	}
	return keys
}
