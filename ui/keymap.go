package ui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// viewKind is a set of views a key binding applies in.
type viewKind uint8

const (
	inPicker viewKind = 1 << iota
	inTable
	inYAML
	inHelp

	inViews = inTable | inYAML
	inAll   = inPicker | inTable | inYAML | inHelp
)

// String names the views for the help screen.
func (k viewKind) String() string {
	if k == inAll {
		return "all"
	}
	var names []string
	for _, v := range []struct {
		kind viewKind
		name string
	}{{inPicker, "picker"}, {inTable, "table"}, {inYAML, "yaml"}, {inHelp, "help"}} {
		if k&v.kind != 0 {
			names = append(names, v.name)
		}
	}
	return strings.Join(names, ",")
}

// Binding is one row of the key table: the key, what it is called and does, the views it works in, and the
// action. A nil action documents a key the focused widget handles itself (scrolling).
type Binding struct {
	Key         tcell.Key // tcell.KeyRune for a character key
	Rune        rune
	Label       string // as the help screen shows it
	Name        string
	Description string
	Views       viewKind
	run         func(a *App)
}

// matches tells whether ev is this binding's key.
func (b Binding) matches(ev *tcell.EventKey) bool {
	if b.Key == tcell.KeyRune {
		return ev.Key() == tcell.KeyRune && ev.Rune() == b.Rune && ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0
	}
	return ev.Key() == b.Key
}

func key(k tcell.Key, label string) Binding { return Binding{Key: k, Label: label} }
func char(r rune) Binding                   { return Binding{Key: tcell.KeyRune, Rune: r, Label: string(r)} }
func shifted(r rune) Binding {
	return Binding{Key: tcell.KeyRune, Rune: r, Label: "shift-" + strings.ToLower(string(r))}
}

func (b Binding) does(name, description string, views viewKind, run func(a *App)) Binding {
	b.Name, b.Description, b.Views, b.run = name, description, views, run
	return b
}

// KeyMap returns kscope's key table. The same table drives key handling and the help screen.
func KeyMap() []Binding {
	return []Binding{
		char('?').does("help", "show this key table", inAll, (*App).showHelp),
		char(':').does("command", "command bar: a resource (pods, deploy, widgets.shop.example.com), ns [NAME], ctx NAME, q", inAll, (*App).openCommandBar),
		char('/').does("filter", "filter rows (regex or -l label selector); in YAML: search", inViews|inPicker, (*App).openFilterBar),
		key(tcell.KeyEscape, "esc").does("back", "clear the filter, else go back", inAll, (*App).escape),
		key(tcell.KeyEnter, "enter").does("open", "open the resource; on a row: YAML (namespaces: switch to it)", inPicker|inTable, (*App).enter),
		char('y').does("yaml", "show the selected object's YAML, live", inTable, (*App).openYAML),
		char('e').does("events", "show the selected object's events, live", inTable|inYAML, (*App).openEvents),
		char('o').does("owner", "jump to the selected object's controller (owner)", inTable|inYAML, (*App).jumpToOwner),
		key(tcell.KeyCtrlD, "ctrl-d").does("delete", "delete the selected object (asks first; refused in --readonly)", inTable|inYAML, (*App).confirmDelete),
		char('w').does("wide", "show or hide the wide columns", inTable, (*App).toggleWide),
		key(tcell.KeyCtrlW, "ctrl-w").does("wide", "show or hide VERBS and CATEGORIES", inPicker, (*App).toggleWide),
		shifted('N').does("sort name", "sort by NAME; again: reverse", inTable, (*App).sortByName),
		shifted('A').does("sort age", "sort by AGE; again: reverse", inTable, (*App).sortByAge),
		char('s').does("sort next", "sort by the next column", inTable, (*App).sortNextColumn),
		char('r').does("reverse", "reverse the sort direction", inTable, (*App).reverseSort),
		char('0').does("all namespaces", "show every namespace", inTable, (*App).allNamespaces),
		char('n').does("next match", "go to the next search match", inYAML, (*App).nextMatch),
		char('m').does("managedFields", "show or hide metadata.managedFields", inYAML, (*App).toggleManagedFields),
		char('x').does("reveal", "reveal or mask Secret data", inYAML, (*App).toggleReveal),
		Binding{Label: "↑↓ j k pgup pgdn g G"}.does("move", "move the selection / scroll", inAll, nil),
		char('q').does("quit", "quit kscope (in the picker, letters filter: use ctrl-c or :q)", inViews|inHelp, (*App).quit),
		key(tcell.KeyCtrlC, "ctrl-c").does("quit", "quit kscope", inAll, (*App).quit),
	}
}

// binding finds the action for ev in view kind, or nil.
func (a *App) binding(kind viewKind, ev *tcell.EventKey) *Binding {
	for i := range a.keys {
		b := &a.keys[i]
		if b.run != nil && b.Views&kind != 0 && b.matches(ev) {
			return b
		}
	}
	return nil
}
