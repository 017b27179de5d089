package ui

import (
	"fmt"
	"testing"

	"kscope/ui/keymap"
	"kscope/ui/plugins"
)

// keyID identifies a key by what the help shows of it.
func keyID(name, label, description string) string {
	return fmt.Sprintf("%s %s: %s", label, name, description)
}

// fromTable reports the keys of bs (kscope's own: not plugins or hotkeys, not remapped) that are not
// some entry's name, key and description of the key table (KeyFamilies of the harness's registered screens), and records in used the entries they are (keyID).
func fromTable(t *testing.T, where string, bs []keymap.Binding, used map[string]bool) {
	t.Helper()
	for _, b := range bs {
		if plugins.Configured(b) {
			continue
		}
		found := false
		for _, f := range KeyFamilies(stubScreens()) { // the harness's registered screens
			for _, e := range f.Defs {
				if e.Name == b.Name && e.Description == b.Description && e.Key.Label == b.Label &&
					e.Key.Key == b.Key && e.Key.Rune == b.Rune {
					used[keyID(e.Name, e.Key.Label, e.Description)], found = true, true
				}
			}
		}
		if !found {
			t.Errorf("%s: key %s %q (%q) is not in keymap.Keys (ui/keymap/table.go)", where, b.Label, b.Name, b.Description)
		}
	}
}
