package cli

import (
	"reflect"
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

// TestRegisteredScreensPlayEveryRole: every role kscope's own keys open (ui.Roles: the YAML, description,
// history, blame and logs of an object, a pod's containers, the contexts) is played by a screen the program
// registers, so that none of those keys is left unbound.
func TestRegisteredScreensPlayEveryRole(t *testing.T) {
	var played ui.Roles
	for _, s := range registered() {
		p, out := reflect.ValueOf(s.Plays), reflect.ValueOf(&played).Elem()
		for i := range p.NumField() {
			if !p.Field(i).IsNil() {
				out.Field(i).Set(p.Field(i))
			}
		}
	}
	r := reflect.ValueOf(played)
	for i := range r.NumField() {
		if r.Field(i).IsNil() {
			t.Errorf("no registered screen plays ui.Roles.%s", r.Type().Field(i).Name)
		}
	}
}
