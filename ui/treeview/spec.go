package treeview

import (
	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/watch"
)

// keys are the screen's keys: its opener on an object, then its own, which act on the selected object.
var keys = struct{ Tree, Open, YAML keymap.KeyDef }{
	Tree: keymap.NewKey("tree", keymap.Char('t'), "the object's owners up to the root and everything it owns, with their health, live"),
	Open: keymap.NewKey("open", keymap.Key(tcell.KeyEnter, "enter"), "the selected object's YAML, live"),
	YAML: keymap.NewKey("yaml", keymap.Char('y'), "the selected object's YAML, live"),
}

// Spec declares the screen to the app (ui.Options.Registered): t on any object, in its table and in the
// views of one, opens its tree; the tree's objects open in the session's YAML view.
var Spec = ui.ScreenSpec{
	Keys: keymap.Family{Title: "Tree view (t on an object)", Screen: "ui/treeview", Defs: []keymap.KeyDef{keys.Tree, keys.Open, keys.YAML}},
	Objects: []ui.ObjectKey{{
		Key: keys.Tree,
		Open: func(s ui.Session, res discovery.Resource, row *watch.Row) {
			v, err := New(s, res, row, s.OpenYAML, s.ResourceForKind)
			if err != nil {
				s.Errorf("%s", err)
				return
			}
			s.Push(v)
		},
	}},
}
