package ui

import (
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// WriteGuard is what ui hands a screen that writes to the one object it was opened on (TableScreens.Rollouts):
// the checks every object verb makes before it asks. A plain value made for one screen (one access cache
// for its life); its funcs run on the UI goroutine.
type WriteGuard struct {
	// Permitted runs do once the user may patch the object; what names the write for the messages ("undo
	// deployments shop/web to revision 1"). Read-only mode refuses it (kscope's message, no question); a
	// patch the server (SelfSubjectAccessReview) says the user may not make is refused on the prompt line;
	// when the question fails, do runs and the server decides.
	Permitted func(what string, do func())
	// Denied tells whether the server said the user may not patch the object (asking, if not yet asked, so
	// that a later call knows); false in read-only mode, where Permitted says why.
	Denied func() bool
}

// rolloutsNeed is the permission an undo needs: patch on the workload.
var rolloutsNeed = accessNeed{verb: "patch"}

// writeGuard is the WriteGuard of row, an object of res, for one screen.
func (a *App) writeGuard(res discovery.Resource, row *watch.Row) WriteGuard {
	access := newAccessCache(a)
	return WriteGuard{
		Permitted: func(what string, do func()) { a.permitted(access, rolloutsNeed, res, row.Namespace, what, do) },
		Denied: func() bool {
			if a.opts.ReadOnly {
				return false
			}
			q := rolloutsNeed.query(res, row.Namespace)
			ans, ok := access.known(q)
			if !ok {
				access.ask(q, nil)
			}
			return ok && !ans.Allowed
		},
	}
}

// rolloutsKeys is the key opening the registered rollouts screen (TableScreens.Rollouts) on res's objects,
// when res has revisions (deployments, statefulsets, daemonsets); with gives it the object the key acts on.
func (a *App) rolloutsKeys(res discovery.Resource, with func(func(discovery.Resource, *watch.Row)) func()) []keymap.Binding {
	open := a.opts.Screens.Rollouts
	if open == nil || restartable(res) != nil { // a screen of its own package (TableScreens); what rollout restart restarts
		return nil
	}
	return []keymap.Binding{keymap.Keys.Workload.Rollouts.Bind(with(func(res discovery.Resource, row *watch.Row) {
		a.push(open(a, res, row, a.writeGuard(res, row)))
	}))}
}
