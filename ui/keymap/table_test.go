package keymap

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestBindingSame: what counts as the same key.
func TestBindingSame(t *testing.T) {
	run := func() {}
	tests := []struct {
		a, b Binding
		want bool
	}{
		{Char('e').Does("a", "", run), Char('e').Does("b", "", run), true},
		{Char('e').Does("a", "", run), Char('E').Does("b", "", run), false},
		{Char('e').Does("a", "", run), Shifted('E').Does("b", "", run), false},
		{Shifted('E').Does("a", "", run), Shifted('E').Does("b", "", run), true},
		{Key(tcell.KeyCtrlD, "ctrl-d").Does("a", "", run), Key(tcell.KeyCtrlD, "ctrl-d").Does("b", "", run), true},
		{Key(tcell.KeyCtrlD, "ctrl-d").Does("a", "", run), Key(tcell.KeyCtrlW, "ctrl-w").Does("b", "", run), false},
		{Key(tcell.KeyEnter, "enter").Does("a", "", run), Char('e').Does("b", "", run), false},
	}
	for _, tt := range tests {
		if got := tt.a.Same(tt.b); got != tt.want {
			t.Errorf("%s.Same(%s) = %v, want %v", tt.a.Label, tt.b.Label, got, tt.want)
		}
	}
}
