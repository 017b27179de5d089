package cli

import (
	"reflect"
	"testing"

	"kscope/ui/keymap"
)

// defsOf are the keys of one family of keymap.Keys (a struct of KeyDefs).
func defsOf(family any) []keymap.KeyDef {
	v := reflect.ValueOf(family)
	out := make([]keymap.KeyDef, 0, v.NumField())
	for i := range v.NumField() {
		out = append(out, v.Field(i).Interface().(keymap.KeyDef))
	}
	return out
}

// TestRegisteredScreensCollideWithNothing: the screens the program registers take no command name twice nor
// one of kscope's own, and their keys on the selected object and on a live table are none of the keys kscope
// binds in those views itself (everywhere, the views', the tables', the object keys, the workloads', nodes',
// debugging and health ones), nor each other's: a new screen's key cannot shadow another silently.
func TestRegisteredScreensCollideWithNothing(t *testing.T) {
	k := keymap.Keys
	taken := map[string]string{}
	for _, family := range []any{k.Global, k.Views, k.Table, k.Object, k.Workload, k.Node, k.Debug, k.Health} {
		for _, d := range defsOf(family) {
			if d.Key.Label != "" {
				taken[d.Key.Label] = "kscope's " + d.Name
			}
		}
	}
	commands := map[string]string{}
	for _, n := range []string{"q", "quit", "q!", "help", "apply", "ns", "namespace", "ctx", "context", "contexts"} {
		commands[n] = "kscope's"
	}
	for _, s := range registered() {
		for _, c := range s.Commands {
			for _, n := range c.Names {
				if who, ok := commands[n]; ok {
					t.Errorf("%s: command %q is %s too", s.Keys.Title, n, who)
				}
				commands[n] = s.Keys.Title + "'s"
			}
		}
		var defs []keymap.KeyDef
		for _, o := range s.Objects {
			defs = append(defs, o.Key)
		}
		for _, tk := range s.Tables {
			defs = append(defs, tk.Key)
		}
		for _, h := range s.Hidden {
			defs = append(defs, h.Rows.Key)
		}
		for _, d := range defs {
			if who, ok := taken[d.Key.Label]; ok {
				t.Errorf("%s: key %s (%s) is %s too", s.Keys.Title, d.Key.Label, d.Name, who)
			}
			taken[d.Key.Label] = s.Keys.Title + "'s " + d.Name
		}
	}
}
