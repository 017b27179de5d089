package cli

import (
	"slices"
	"strings"
	"testing"

	"kscope/ui"
	"kscope/ui/keymap"
)

// TestRegisteredScreensCollideWithNothing: the screens the program registers take no command name twice nor
// one of kscope's own, and their keys on the selected object, on a live table and of hidden rows are none of
// the keys kscope binds in those views itself, nor each other's (ui.ScreenCollisions, which the app says at
// start): a new screen's command or key cannot shadow another silently. The check knows every one of
// kscope's command names (ui.CommandNames): a screen registered after these taking one is said.
func TestRegisteredScreensCollideWithNothing(t *testing.T) {
	screens := registered()
	for _, line := range ui.ScreenCollisions(screens) {
		t.Error(line)
	}
	names := ui.CommandNames()
	if len(names) == 0 {
		t.Fatal("ui.CommandNames: none")
	}
	for _, n := range names {
		probe := ui.ScreenSpec{Keys: keymap.Family{Title: "Probe view"},
			Commands: []ui.Command{{Names: []string{n}, Run: func(ui.Session, []string) {}}}}
		lines := ui.ScreenCollisions(append(slices.Clip(screens), probe))
		if want := "Probe view's command :" + n + " is kscope's too"; len(lines) != 1 || !strings.HasPrefix(lines[0], want) {
			t.Errorf("a screen's :%s: collisions %q, want one saying %q", n, lines, want)
		}
	}
}
