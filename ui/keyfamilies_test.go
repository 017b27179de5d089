package ui

import (
	"slices"
	"strings"
	"testing"

	"kscope/ui/keymap"
)

// TestKeyFamiliesFindTheCommandKey: the `:` key names the registered commands in whichever family of the key
// table holds it (found by its name, not by its place), and no other key changes; the screens' families
// follow the table's.
func TestKeyFamiliesFindTheCommandKey(t *testing.T) {
	var s Session
	var words []string
	screens := []ScreenSpec{feedSpec(&s, &words)}
	core := keymap.Keys.Families()
	last := len(core) - 1
	moved := func(to int) []keymap.Family { // the key table with its first family (Everywhere) moved to to
		f := keymap.Keys.Families()
		first := f[0]
		return slices.Insert(slices.Delete(f, 0, 1), to, first)
	}
	for _, tt := range []struct {
		name     string
		families []keymap.Family
		at       int // the index of the family holding the `:` key
	}{
		{"first, as keymap.Keys has it", keymap.Keys.Families(), 0},
		{"in the middle", moved(3), 3},
		{"last", moved(last), last},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := withScreens(tt.families, screens)
			if len(got) != len(core)+1 || got[len(got)-1].Title != screens[0].Keys.Title {
				t.Fatalf("%d families (last %q), want the table's %d then the feed's", len(got), got[len(got)-1].Title, len(core))
			}
			want := moved(tt.at)
			if tt.at == 0 {
				want = keymap.Keys.Families()
			}
			seen := false
			for i, f := range got[:len(core)] {
				for j, d := range f.Defs {
					w := want[i].Defs[j]
					if i == tt.at && d.Name == keymap.Keys.Global.Command.Name {
						if !strings.HasSuffix(d.Description, ", feed [@CTX,…] [NS] (the feed)") || d.Key.Label != w.Key.Label {
							t.Errorf("the `:` key in %q: %q on %s", f.Title, d.Description, d.Key.Label)
						}
						seen = true
						continue
					}
					if d.Description != w.Description || d.Name != w.Name {
						t.Errorf("%q's key %s changed: %q, was %q", f.Title, d.Name, d.Description, w.Description)
					}
				}
			}
			if !seen {
				t.Errorf("no `:` key in family %d", tt.at)
			}
		})
	}
}
