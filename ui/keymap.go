package ui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Binding is one key of a view (or of the app, for the global keys): the key, what it is called and does, and
// the action. The same bindings drive key handling and the help screen. A nil action documents a key the
// focused widget handles itself (scrolling).
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

// matches tells whether ev is this binding's key.
func (b Binding) matches(ev *tcell.EventKey) bool {
	if b.run == nil {
		return false
	}
	if b.Key == tcell.KeyRune {
		return ev.Key() == tcell.KeyRune && ev.Rune() == b.Rune && ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0
	}
	return ev.Key() == b.Key
}

// Handle runs b's action when ev is b's key, and tells whether it did; a binding without an action (a key the
// widget handles itself) never does. UI goroutine only. The app finds a key's binding itself (capture);
// Handle is for the tests of screens in packages of their own (navtest.Nav.Press).
func (b Binding) Handle(ev *tcell.EventKey) bool {
	if !b.matches(ev) {
		return false
	}
	b.run()
	return true
}

// same tells whether b and o are bound to the same key.
func (b Binding) same(o Binding) bool {
	if b.Label == "" || o.Label == "" || (b.run == nil && o.run == nil) {
		return false
	}
	return b.Key == o.Key && (b.Key != tcell.KeyRune || b.Rune == o.Rune)
}

func key(k tcell.Key, label string) Binding { return Binding{Key: k, Label: label} }
func char(r rune) Binding                   { return Binding{Key: tcell.KeyRune, Rune: r, Label: string(r)} }
func shifted(r rune) Binding {
	return Binding{Key: tcell.KeyRune, Rune: r, Label: "shift-" + strings.ToLower(string(r))}
}

// does names the binding and gives it its action.
func (b Binding) does(name, description string, run func()) Binding {
	b.Name, b.Description, b.run = name, description, run
	return b
}

// findBinding returns the binding in bs for ev, or nil.
func findBinding(bs []Binding, ev *tcell.EventKey) *Binding {
	for i := range bs {
		if bs[i].matches(ev) {
			return &bs[i]
		}
	}
	return nil
}

// globalBindings are the keys that work in every view, after the view's own: kscope's, then the configured
// hotkeys (those that override the views' keys are found before them, and listed here too).
func (a *App) globalBindings() []Binding {
	return append(append([]Binding{
		Keys.Global.Command.Bind(a.openCommandBar),
		Keys.Global.Back.Bind(a.escape),
		Keys.Global.Move.Bind(nil),
		Keys.Global.Quit.Bind(a.quit),
	}, a.hotkeysFirst...), a.hotkeys...)
}

// HelpBinding opens the help screen for the top view.
func (a *App) HelpBinding() Binding {
	return Keys.Views.Help.Bind(a.showHelp)
}

// QuitBinding is `q` (not in the picker, where letters filter).
func (a *App) QuitBinding() Binding {
	return Keys.Views.Quit.Bind(a.quit)
}
