package ui

import (
	"kscope/discovery"
	"kscope/watch"
)

// WriteGuard is what ui hands a screen that writes to the one object it was opened on (Session.WriteGuard):
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

// writeGuard is the WriteGuard of row, an object of res, for one screen: the object verbs' checks of a write
// of apiVerb (verbs.Verbs.WriteCheck, one access cache for the screen's life).
func (a *App) writeGuard(res discovery.Resource, row *watch.Row, apiVerb string) WriteGuard {
	permitted, denied := a.verbs.WriteCheck(res, row, apiVerb)
	return WriteGuard{Permitted: permitted, Denied: denied}
}
