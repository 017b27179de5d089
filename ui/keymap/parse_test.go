package keymap

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in    string
		key   tcell.Key
		r     rune
		label string
	}{
		{"a", tcell.KeyRune, 'a', "a"},
		{"Shift-A", tcell.KeyRune, 'A', "shift-a"},
		{"shift-0", tcell.KeyRune, ')', "shift-0"},
		{"Shift-1", tcell.KeyRune, '!', "shift-1"},
		{"Ctrl-U", tcell.KeyCtrlU, 0, "ctrl-u"},
		{"F1", tcell.KeyF1, 0, "f1"},
		{"enter", tcell.KeyEnter, 0, "enter"},
	} {
		b, err := Parse(tc.in)
		if err != nil || b.Key != tc.key || b.Rune != tc.r || b.Label != tc.label {
			t.Errorf("Parse(%q) = %v %q %q, %v; want %v %q %q", tc.in, b.Key, b.Rune, b.Label, err, tc.key, tc.r, tc.label)
		}
	}
	if _, err := Parse("Hyper-Q"); err == nil {
		t.Errorf("Hyper-Q parsed")
	}
}
