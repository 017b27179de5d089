package navtest

import "path/filepath"

// Question is a line of text a screen asked for (Ask): its label and initial text.
type Question struct {
	Label, Initial string
	done           func(string)
}

// Choice is a dialog a screen opened (Choose): its title, items and the one preselected.
type Choice struct {
	Title    string
	Items    []string
	Selected int
	pick     func(int)
}

// Copy is what a screen copied to the clipboard (CopyToClipboard): what it is called and its text.
type Copy struct{ What, Text string }

// SavedFile is a file a screen saved (SaveFile): its kind, its name and its data.
type SavedFile struct {
	Kind, Name string
	Data       []byte
}

// dialogs are the questions, choices, copies and files recorded (guarded by Nav.rec).
type dialogs struct {
	questions []Question
	choices   []Choice
	copied    []Copy
	saved     []SavedFile
}

// Ask implements ui.Navigator: it records the question; Answer answers it.
func (n *Nav) Ask(label, initial string, done func(text string)) {
	n.rec.Lock()
	defer n.rec.Unlock()
	n.dialogs.questions = append(n.dialogs.questions, Question{Label: label, Initial: initial, done: done})
}

// Choose implements ui.Navigator: it records the dialog; Pick answers it.
func (n *Nav) Choose(title string, items []string, selected int, pick func(int)) {
	n.rec.Lock()
	defer n.rec.Unlock()
	n.dialogs.choices = append(n.dialogs.choices, Choice{Title: title, Items: items, Selected: selected, pick: pick})
}

// CopyToClipboard implements ui.Navigator: it records what was copied (Copied).
func (n *Nav) CopyToClipboard(what, text string) {
	n.rec.Lock()
	defer n.rec.Unlock()
	n.dialogs.copied = append(n.dialogs.copied, Copy{What: what, Text: text})
}

// SaveFile implements ui.Navigator: it records the file (Saved) and returns kind/name, written nowhere.
func (n *Nav) SaveFile(kind, name string, data []byte) (string, error) {
	n.rec.Lock()
	defer n.rec.Unlock()
	n.dialogs.saved = append(n.dialogs.saved, SavedFile{Kind: kind, Name: name, Data: append([]byte(nil), data...)})
	return filepath.Join(kind, name), nil
}

// Questions returns the lines asked for so far, in order.
func (n *Nav) Questions() []Question {
	n.rec.Lock()
	defer n.rec.Unlock()
	return append([]Question(nil), n.dialogs.questions...)
}

// Answer types text and Enter into the last question asked, as the UI goroutine (not from within UI); it
// tells whether there was one.
func (n *Nav) Answer(text string) bool {
	q := n.Questions()
	if len(q) == 0 {
		return false
	}
	n.UI(func() { q[len(q)-1].done(text) })
	return true
}

// Choices returns the dialogs opened so far, in order.
func (n *Nav) Choices() []Choice {
	n.rec.Lock()
	defer n.rec.Unlock()
	return append([]Choice(nil), n.dialogs.choices...)
}

// Pick chooses item i of the last dialog opened, as the UI goroutine (not from within UI); it tells whether
// there was one.
func (n *Nav) Pick(i int) bool {
	c := n.Choices()
	if len(c) == 0 {
		return false
	}
	n.UI(func() { c[len(c)-1].pick(i) })
	return true
}

// Copied returns what was copied so far, in order.
func (n *Nav) Copied() []Copy {
	n.rec.Lock()
	defer n.rec.Unlock()
	return append([]Copy(nil), n.dialogs.copied...)
}

// Saved returns the files saved so far, in order.
func (n *Nav) Saved() []SavedFile {
	n.rec.Lock()
	defer n.rec.Unlock()
	return append([]SavedFile(nil), n.dialogs.saved...)
}
