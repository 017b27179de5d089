package keymap

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Binding is one key of a view (or of the app, for the global keys): the key, what it is called and does, and
// the action. The same bindings drive key handling and the help screen. A nil action documents a key the
// focused widget handles itself (scrolling). A Binding is a value: its methods never change it, and it is used
// on the UI goroutine (its action runs there).
type Binding struct {
	Key         tcell.Key // tcell.KeyRune for a character key
	Rune        rune
	Label       string // as the help screen shows it
	Name        string
	Description string
	run         func()
	// denied, when set, tells whether the server said the user may not use the key's verb here (it may
	// ask the server, so that a later call knows).
	denied func() bool
}

// Key is the binding of the special key k (enter, ctrl-d, …), labelled label, without a name or an action.
func Key(k tcell.Key, label string) Binding { return Binding{Key: k, Label: label} }

// Char is the binding of the character r, labelled with it, without a name or an action.
func Char(r rune) Binding { return Binding{Key: tcell.KeyRune, Rune: r, Label: string(r)} }

// Shifted is the binding of the upper-case letter r, labelled shift-r, without a name or an action.
func Shifted(r rune) Binding {
	return Binding{Key: tcell.KeyRune, Rune: r, Label: "shift-" + strings.ToLower(string(r))}
}

// Does returns b named and described, running run (nil: a key the focused widget handles itself).
func (b Binding) Does(name, description string, run func()) Binding {
	b.Name, b.Description, b.run = name, description, run
	return b
}

// WithDenied returns b whose Denied asks denied (which may ask the server, and must be called on the UI
// goroutine).
func (b Binding) WithDenied(denied func() bool) Binding {
	b.denied = denied
	return b
}

// Denied tells whether the server said the user may not use b's verb here (false for a key that is no verb).
func (b Binding) Denied() bool { return b.denied != nil && b.denied() }

// Active tells whether b has an action (else it only documents a key the focused widget handles itself).
func (b Binding) Active() bool { return b.run != nil }

// Run runs b's action (nothing for a binding without one). UI goroutine only.
func (b Binding) Run() {
	if b.run != nil {
		b.run()
	}
}

// Matches tells whether ev is b's key; a binding without an action never matches.
func (b Binding) Matches(ev *tcell.EventKey) bool {
	if b.run == nil {
		return false
	}
	if b.Key == tcell.KeyRune {
		return ev.Key() == tcell.KeyRune && ev.Rune() == b.Rune && ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0
	}
	return ev.Key() == b.Key
}

// Handle runs b's action when ev is b's key, and tells whether it did; a binding without an action (a key the
// widget handles itself) never does. UI goroutine only. The app finds a key's binding itself (Find); Handle
// is for the tests of screens in packages of their own (navtest.Nav.Press).
func (b Binding) Handle(ev *tcell.EventKey) bool {
	if !b.Matches(ev) {
		return false
	}
	b.run()
	return true
}

// Same tells whether b and o are bound to the same key (both labelled, one at least with an action).
func (b Binding) Same(o Binding) bool {
	if b.Label == "" || o.Label == "" || (b.run == nil && o.run == nil) {
		return false
	}
	return b.Key == o.Key && (b.Key != tcell.KeyRune || b.Rune == o.Rune)
}

// Find returns the first binding in bs for ev, or nil.
func Find(bs []Binding, ev *tcell.EventKey) *Binding {
	for i := range bs {
		if bs[i].Matches(ev) {
			return &bs[i]
		}
	}
	return nil
}
