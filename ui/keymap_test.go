package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestNoKeyBoundTwice: within each view, its own bindings and the global ones never share a key (the first
// would silently win), and every binding with an action is named and described for the help screen.
func TestNoKeyBoundTwice(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	views := map[string]view{}
	h.ui(func() { views["picker"], views["table"] = h.app.stack[0], h.app.top() })
	h.press(tcell.KeyRune, 'y')
	h.ui(func() { views["yaml"] = h.app.top() })
	h.press(tcell.KeyRune, '?')
	h.ui(func() { views["help"] = h.app.top() })
	for name, v := range views {
		var keys []Binding
		h.ui(func() { keys = append(v.bindings(), h.app.globalBindings()...) })
		for i, b := range keys {
			if b.run != nil && (b.Name == "" || b.Description == "" || b.Label == "") {
				t.Errorf("%s: binding %+v lacks a label, name or description", name, b)
			}
			for _, o := range keys[i+1:] {
				if b.same(o) {
					t.Errorf("%s: %q is bound twice: %s and %s", name, b.Label, b.Name, o.Name)
				}
			}
		}
	}
}

// TestBindingSame: what counts as the same key.
func TestBindingSame(t *testing.T) {
	run := func() {}
	tests := []struct {
		a, b Binding
		want bool
	}{
		{char('e').does("a", "", run), char('e').does("b", "", run), true},
		{char('e').does("a", "", run), char('E').does("b", "", run), false},
		{char('e').does("a", "", run), shifted('E').does("b", "", run), false},
		{shifted('E').does("a", "", run), shifted('E').does("b", "", run), true},
		{key(tcell.KeyCtrlD, "ctrl-d").does("a", "", run), key(tcell.KeyCtrlD, "ctrl-d").does("b", "", run), true},
		{key(tcell.KeyCtrlD, "ctrl-d").does("a", "", run), key(tcell.KeyCtrlW, "ctrl-w").does("b", "", run), false},
		{key(tcell.KeyEnter, "enter").does("a", "", run), char('e').does("b", "", run), false},
	}
	for _, tt := range tests {
		if got := tt.a.same(tt.b); got != tt.want {
			t.Errorf("%s.same(%s) = %v, want %v", tt.a.Label, tt.b.Label, got, tt.want)
		}
	}
}
