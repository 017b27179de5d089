package host

// Prompts are the questions the app asks the user for a part: a dialog to confirm, a line of text, a choice.
// The hosts that ask (verbs.Host, plugins.Host) and ui.Navigator embed it. UI goroutine only; the answers
// come back on it.
type Prompts interface {
	// Confirm asks question in a dialog with Cancel (focused) and action; do runs only if the user picks action.
	Confirm(question, action string, do func())
	// Ask asks for a line of text on the prompt line, after label, beginning with initial; done receives the
	// text on Enter (esc drops it).
	Ask(label, initial string, done func(text string))
	// Choose shows items in a dialog titled title, selected preselected; pick receives the index chosen (esc
	// closes it without a choice).
	Choose(title string, items []string, selected int, pick func(int))
}
