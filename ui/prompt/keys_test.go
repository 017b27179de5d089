package prompt

import (
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// The fuzz targets read their input as keys, one a character: a printable character is typed; '\n' and
// '\r' are Enter, '\t' Tab, '\x1b' Esc, '\b' and '\x7f' Backspace; any other control character is its
// ctrl key (as tcell reports it: '\x01' ctrl-a, '\x17' ctrl-w, …); and a byte that is not UTF-8 (from
// '\x80') is one of the keys no character stands for (specialKey), so that a mutation of one byte
// reaches each of them.

// maxKeys is how many keys of an input are pressed: a line of a prompt is short, and the input field's
// cost per key grows with its text (tview lays the line out again), so longer inputs would only be slower.
const maxKeys = 200

// pressAll presses the keys input stands for, up to maxKeys.
func (d *driver) pressAll(input string) {
	for n := 0; n < maxKeys && input != ""; n++ {
		r, size := utf8.DecodeRuneInString(input)
		if r == utf8.RuneError && size == 1 {
			d.press(specialKey(input[0]))
		} else {
			d.press(keyEvent(r))
		}
		input = input[size:]
	}
}

// keyEvent returns the key the character r stands for.
func keyEvent(r rune) *tcell.EventKey {
	switch r {
	case '\n', '\r':
		return tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
	case '\x7f':
		return tcell.NewEventKey(tcell.KeyBackspace2, 0, tcell.ModNone)
	}
	return tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone) // tcell turns control characters into keys
}

// specialKey returns the key that the byte b (not UTF-8) stands for: from '\x80' on, Left, Right, Up,
// Down, Home, End, Delete, Backtab, PgUp, PgDn, Insert, F1, alt-b, alt-f, alt-Backspace, and again.
func specialKey(b byte) *tcell.EventKey {
	keys := []tcell.Key{tcell.KeyLeft, tcell.KeyRight, tcell.KeyUp, tcell.KeyDown, tcell.KeyHome, tcell.KeyEnd,
		tcell.KeyDelete, tcell.KeyBacktab, tcell.KeyPgUp, tcell.KeyPgDn, tcell.KeyInsert, tcell.KeyF1}
	switch i := int(b-0x80) % (len(keys) + 3); {
	case i < len(keys):
		return tcell.NewEventKey(keys[i], 0, tcell.ModNone)
	case i == len(keys):
		return tcell.NewEventKey(tcell.KeyRune, 'b', tcell.ModAlt) // a word left
	case i == len(keys)+1:
		return tcell.NewEventKey(tcell.KeyRune, 'f', tcell.ModAlt) // a word right
	default:
		return tcell.NewEventKey(tcell.KeyBackspace, 0, tcell.ModAlt) // a word back
	}
}
