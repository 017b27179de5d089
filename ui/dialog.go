package ui

// Confirm implements Navigator: it shows question with Cancel (focused) and the action's button; do runs if
// the user chooses it. A question about a row of another cluster than the session's names its context.
func (a *App) Confirm(question, action string, do func()) {
	if a.context != "" {
		question = "context " + a.context + ": " + question
	}
	a.confirm(question, action, do)
}
