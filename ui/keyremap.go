package ui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"kscope/config"
	"kscope/ui/keymap"
	"kscope/ui/plugins"
)

// keyRemaps are the keys keys.yaml gives kscope's own bindings, by name. The remap happens where the
// bindings are consulted (App.keys), so the one key table still drives both the handling and the help.
// UI goroutine only (warned).
type keyRemaps struct {
	to map[string]keymap.Binding // name → the new key (Key, Rune, Label)
	// warned holds the remaps already said not to apply in a view, and the configured keys said to conflict
	// (each said once per session).
	warned map[string]bool
}

// newKeyRemaps reads keys.yaml's entries; one that names no binding or a key that cannot be read is left
// out and said in bad.
// names are the names keys.yaml may use: keymap.Names of the whole key table (KeyFamilies).
func newKeyRemaps(remaps []config.KeyRemap, names []string) (keyRemaps, []string) {
	k := keyRemaps{to: map[string]keymap.Binding{}, warned: map[string]bool{}}
	var bad []string
	for _, r := range remaps {
		b, err := keymap.Parse(r.Key)
		switch {
		case r.Name == keymap.Keys.Global.Move.Name:
			bad = append(bad, "keys.yaml: move is the list's own keys (arrows, j k, pgup pgdn, g G): they cannot be rebound")
		case !slices.Contains(names, r.Name):
			bad = append(bad, fmt.Sprintf("keys.yaml: no key is called %q (the names are the help's NAME column: describe, yaml, logs …)", r.Name))
		case err != nil:
			bad = append(bad, fmt.Sprintf("keys.yaml: %s: %s", r.Name, err))
		default:
			k.to[r.Name] = b
		}
	}
	return k, bad
}

// apply returns keys (a view's own, then the global ones) with the remaps applied, and the lines saying
// which remaps were not applied because their key is another binding's in the same keys. The first
// binding of a name is the one remapped (the view's own `quit` before the global ctrl-c).
func (k keyRemaps) apply(keys []keymap.Binding) ([]keymap.Binding, []string) {
	if len(k.to) == 0 {
		return keys, nil
	}
	out := slices.Clone(keys)
	remapped := map[int]keymap.Binding{} // index → its default key
	for name, to := range k.to {
		if i := slices.IndexFunc(out, func(b keymap.Binding) bool { return b.Name == name && b.Active() }); i >= 0 {
			remapped[i] = out[i]
			out[i].Key, out[i].Rune, out[i].Label = to.Key, to.Rune, to.Label
		}
	}
	var notes []string
	for changed := true; changed; { // undoing one remap may make another collide with the key it frees
		changed = false
		for _, i := range slices.Sorted(maps.Keys(remapped)) {
			j := collision(out, i)
			if j < 0 {
				continue
			}
			undo := []int{i}
			if _, both := remapped[j]; both { // two remaps onto one key: neither
				undo = append(undo, j)
			}
			for _, u := range undo {
				o := out[collision(out, u)]
				notes = append(notes, fmt.Sprintf("keys.yaml: %s → %s not applied here: %s is %s", out[u].Name, out[u].Label, out[u].Label, o.Name))
			}
			for _, u := range undo {
				out[u] = remapped[u]
				delete(remapped, u)
			}
			changed = true
		}
	}
	return out, notes
}

// readKeys reads the configured keys (hotkeys, plugins, keys.yaml's remaps) once, at start; it returns a
// line for each that cannot be used, then one for each command or key of a registered screen that collides
// (ScreenCollisions).
func (a *App) readKeys() []string {
	var bad, badPlugins, badRemaps []string
	a.hotkeysFirst, a.hotkeys, bad = plugins.HotKeys(a.opts.HotKeys, a.command)
	a.plugins, badPlugins = plugins.New(pluginHost{a}, a.opts.Plugins, a.opts.ContextPlugins)
	a.remaps, badRemaps = newKeyRemaps(a.opts.Keys, keymap.Names(KeyFamilies(a.opts.Registered)))
	return slices.Concat(bad, badPlugins, badRemaps, ScreenCollisions(a.opts.Registered))
}

// keys returns the keys of v, then the global keys, as keys.yaml remaps them and as configured keys take
// them (see viewKeys). UI goroutine only.
func (a *App) keys(v Screen) (own, global []keymap.Binding) {
	k := a.viewKeys(v)
	return k.own, k.global
}

// keySet is the keys of a view: its own (the plugins that apply to it among them), the global ones, and
// the configured keys that lost a key to another binding or took one.
type keySet struct {
	own, global []keymap.Binding
	conflicts   []keyConflict
}

// viewKeys returns v's keys: kscope's, remapped by keys.yaml, then given out by resolveKeys in this order:
// hotkeys with override, plugins with override, v's own keys, kscope's global keys, the other plugins,
// the other hotkeys. The first time a remap cannot apply or a configured key conflicts in a view, it says
// so on the prompt line (a message the key pressed shows then replaces it; the help lists the conflicts).
// UI goroutine only.
func (a *App) viewKeys(v Screen) keySet {
	viewKeys := v.Bindings()
	globals := a.globalBindings()
	all, notes := a.remaps.apply(append(slices.Clip(viewKeys), globals...))
	nOwn, nHot := len(viewKeys), len(a.hotkeysFirst)+len(a.hotkeys)
	own, kscope := all[:nOwn], all[nOwn:len(all)-nHot]
	hotFirst, hot := all[len(all)-nHot:len(all)-len(a.hotkeys)], all[len(all)-len(a.hotkeys):]
	pluginsFirst, pluginsAfter := a.pluginBindings(v)
	kept, conflicts := resolveKeys(hotFirst, pluginsFirst, own, kscope, pluginsAfter, hot)
	for i, n := range notes {
		notes[i] = strings.Replace(n, " here:", " in "+v.Crumb()+":", 1)
	}
	for _, c := range conflicts {
		notes = append(notes, c.why(v.Crumb()))
	}
	for _, n := range notes {
		if !a.remaps.warned[n] {
			a.remaps.warned[n] = true
			a.Message(n) // now, so that what the key pressed says comes after it, not under it
		}
	}
	return keySet{
		own:       append(append(kept[1], kept[2]...), kept[4]...),
		global:    append(append(kept[0], kept[3]...), kept[5]...),
		conflicts: conflicts,
	}
}

// collision is the index of another binding in keys with the key of keys[i], or -1.
func collision(keys []keymap.Binding, i int) int {
	for j := range keys {
		if j != i && keys[i].Same(keys[j]) {
			return j
		}
	}
	return -1
}
