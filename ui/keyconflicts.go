package ui

import (
	"fmt"
	"reflect"
	"strings"

	"kscope/ui/keymap"
	"kscope/ui/plugins"
)

// keyConflict is a key two bindings of a view want, one of them configured (a plugin or a hotkey): lost
// is the binding that does not get it, kept the one that does.
type keyConflict struct {
	lost, kept keymap.Binding
}

// why is the conflict in one line, for the prompt line (in names the view) and the help.
func (c keyConflict) why(in string) string {
	if plugins.Configured(c.lost) {
		return fmt.Sprintf("%s on %s not bound in %s: %s is %s (override: true would take it)",
			c.lost.Name, c.lost.Label, in, c.lost.Label, c.kept.Name)
	}
	return fmt.Sprintf("%s takes %s from %s in %s (override: true)", c.kept.Name, c.lost.Label, c.lost.Name, in)
}

// resolveKeys gives each key of tiers, searched in order, to the first binding that wants it, as k9s
// does: a configured binding on a key taken already is left out, and a kscope key that a configured
// binding (one with override, in an earlier tier) took is left out; both are returned as conflicts. Two
// of kscope's own bindings on one key are both kept (a bug TestNoKeyBoundTwice finds).
func resolveKeys(tiers ...[]keymap.Binding) (kept [][]keymap.Binding, lost []keyConflict) {
	var taken []keymap.Binding
	for _, tier := range tiers {
		var out []keymap.Binding
		for _, b := range tier {
			if i := collision(append(taken, b), len(taken)); i >= 0 && (plugins.Configured(b) || plugins.Configured(taken[i])) {
				lost = append(lost, keyConflict{lost: b, kept: taken[i]})
				continue
			}
			out = append(out, b)
			taken = append(taken, b)
		}
		kept = append(kept, out)
	}
	return kept, lost
}

// ScreenCollisions are what the screens registered in this order (Options.Registered) take of kscope's or
// of each other, a line each naming the screen, the command or key, and who has it: a command name of
// kscope's own (CommandNames) or of an earlier screen's, which is the one that runs; a key on the selected
// object that kscope or an earlier screen binds in the tables or in the views of one object; a key on a live
// table or of hidden rows that one binds in the tables; a role (Roles) an earlier screen plays, whose screen
// is the one opened. The app says them on the prompt line at start (a
// screen that collides is shown, not shadowed). A pure function of screens and kscope's key table; safe
// from any goroutine.
func ScreenCollisions(screens []ScreenSpec) []string {
	k := keymap.Keys
	tables := &keyViews{where: "the tables",
		taken: ownKeys(k.Global, k.Views, k.Table, k.Opened, k.Object, k.Workload, k.Node, k.Debug, k.Health)}
	objects := &keyViews{where: "the views of one object",
		taken: ownKeys(k.Global, k.Views, k.Object, k.Workload, k.Node, k.Debug, k.Health, k.YAML, k.Describe)}
	commands := map[string]string{}
	for _, n := range CommandNames() {
		commands[n] = "kscope's"
	}
	var out []string
	for _, s := range screens {
		name := screenName(s)
		for _, c := range s.Commands {
			for _, n := range c.Names {
				if who, ok := commands[n]; ok {
					out = append(out, fmt.Sprintf("%s's command :%s is %s too: %s's never runs", name, n, who, name))
					continue
				}
				commands[n] = name + "'s"
			}
		}
		for _, o := range s.Objects {
			out = appendCollision(out, name, o.Key, tables, objects)
		}
		for _, t := range s.Tables {
			out = appendCollision(out, name, t.Key, tables)
		}
		for _, h := range s.Hidden {
			out = appendCollision(out, name, h.Rows.Key, tables)
		}
	}
	return append(out, roleCollisions(screens)...)
}

// screenName is how a collision line names s: its family's title, without what follows in parentheses
// ("Rollouts view (shift-r on …)" is "Rollouts view"); without a title, its package, else its first command.
func screenName(s ScreenSpec) string {
	name, _, _ := strings.Cut(s.Keys.Title, " (")
	switch {
	case name != "":
		return name
	case s.Keys.Screen != "":
		return s.Keys.Screen
	case len(s.Commands) > 0 && len(s.Commands[0].Names) > 0:
		return "the screen of :" + s.Commands[0].Names[0]
	}
	return "a screen"
}

// keyViews are the keys bound in a kind of view (where), and whose each is.
type keyViews struct {
	where string
	taken []ownedKey
}

// ownedKey is a key of the key table and whose it is ("kscope's yaml").
type ownedKey struct {
	def keymap.KeyDef
	who string
}

// ownKeys are the keys of families of keymap.Keys (structs of KeyDefs), as kscope's.
func ownKeys(families ...any) []ownedKey {
	var out []ownedKey
	for _, f := range families {
		v := reflect.ValueOf(f)
		for i := range v.NumField() {
			d := v.Field(i).Interface().(keymap.KeyDef)
			out = append(out, ownedKey{def: d, who: "kscope's " + d.Name})
		}
	}
	return out
}

// appendCollision appends to out the line of the first of views where another binds d, screen's key;
// then d is screen's in each of views.
func appendCollision(out []string, screen string, d keymap.KeyDef, views ...*keyViews) []string {
	found := false
	for _, v := range views {
		if who, ok := v.owner(d); ok && !found {
			found = true
			out = append(out, fmt.Sprintf("%s's key %s (%s) is %s too, in %s", screen, d.Key.Label, d.Name, who, v.where))
		}
		v.taken = append(v.taken, ownedKey{def: d, who: screen + "'s " + d.Name})
	}
	return out
}

// owner is whose d's key is in v, if anyone's.
func (v *keyViews) owner(d keymap.KeyDef) (string, bool) {
	nop := func() {}
	for _, t := range v.taken {
		if t.def.Bind(nop).Same(d.Bind(nop)) {
			return t.who, true
		}
	}
	return "", false
}
