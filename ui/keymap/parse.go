package keymap

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// shiftedDigits are the characters Shift-0 … Shift-9 stand for in k9s's key names (a US keyboard's).
const shiftedDigits = ")!@#$%^&*("

// Parse reads a key as k9s's hotkeys.yaml names it: a character (a, 0, ?), Shift-A (A), Shift-0
// ()), Ctrl-U, or a named key (F1, Enter, Tab, PgUp …); case does not matter in the names.
func Parse(s string) (Binding, error) {
	if r := []rune(s); len(r) == 1 {
		return Char(r[0]), nil
	}
	lower := strings.ToLower(s)
	if rest, ok := strings.CutPrefix(lower, "shift-"); ok && len(rest) == 1 {
		switch c := rest[0]; {
		case c >= 'a' && c <= 'z':
			return Shifted(rune(c - 'a' + 'A')), nil
		case c >= '0' && c <= '9':
			b := Char(rune(shiftedDigits[c-'0']))
			b.Label = "shift-" + rest
			return b, nil
		}
	}
	if rest, ok := strings.CutPrefix(lower, "ctrl-"); ok && len(rest) == 1 && rest[0] >= 'a' && rest[0] <= 'z' {
		return Key(tcell.KeyCtrlA+tcell.Key(rest[0]-'a'), "ctrl-"+rest), nil
	}
	for k, name := range tcell.KeyNames {
		if strings.EqualFold(name, s) && k != tcell.KeyRune {
			return Key(k, strings.ToLower(name)), nil
		}
	}
	return Binding{}, fmt.Errorf("unknown key %q (keys are written a, Shift-A, Shift-0, Ctrl-U, F1 …)", s)
}
