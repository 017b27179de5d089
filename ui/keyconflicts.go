package ui

import (
	"fmt"

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
