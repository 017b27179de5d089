package verbs

import (
	"kscope/discovery"
	"kscope/watch"
)

// WriteCheck is the check every object verb makes before it asks, for a write of apiVerb ("patch") that a
// screen of its own makes on row, an object of res (the rollouts' undo): permitted runs do once the user may
// (read-only mode refuses with kscope's message and asks nothing; a refusal of the server, asked with a
// SelfSubjectAccessReview, is said on the prompt line; when the question fails, do runs and the server
// decides), and what names the write for the messages; denied tells whether the server said no (asking if
// not asked yet; false in read-only mode, where permitted says why). One access cache serves both, for the
// screen's life. UI goroutine.
func (v *Verbs) WriteCheck(res discovery.Resource, row *watch.Row, apiVerb string) (permitted func(what string, do func()), denied func() bool) {
	access := NewAccess(v.Host)
	need := accessNeed{verb: apiVerb}
	permitted = func(what string, do func()) { v.permitted(access, need, res, row.Namespace, what, do) }
	denied = func() bool {
		if v.ReadOnly() {
			return false
		}
		q := need.query(res, row.Namespace)
		ans, ok := access.known(q)
		if !ok {
			access.ask(q, nil)
		}
		return ok && !ans.Allowed
	}
	return permitted, denied
}
