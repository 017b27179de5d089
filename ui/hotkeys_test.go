package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/config"
)

func TestParseShortCut(t *testing.T) {
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
		b, err := parseShortCut(tc.in)
		if err != nil || b.Key != tc.key || b.Rune != tc.r || b.Label != tc.label {
			t.Errorf("parseShortCut(%q) = %v %q %q, %v; want %v %q %q", tc.in, b.Key, b.Rune, b.Label, err, tc.key, tc.r, tc.label)
		}
	}
	if _, err := parseShortCut("Hyper-Q"); err == nil {
		t.Errorf("Hyper-Q parsed")
	}
}

func TestAliasesAndHotKeys(t *testing.T) {
	h := start(t, 120, 70, func(o *Options) {
		o.Aliases = config.Aliases{"dp": "deployments.apps", "both": "pods shop,data"}
		o.HotKeys = []config.HotKey{
			{Name: "secrets", ShortCut: "Shift-0", Description: "the secrets", Command: "secrets"},
			{Name: "pods", ShortCut: "Ctrl-U", Command: "pods", Override: true},
			{Name: "broken", ShortCut: "Hyper-Q", Command: "pods"},
		}
	})
	h.eventually(`hotkey broken: unknown key "Hyper-Q"`)
	h.command("dp")
	h.eventually("deployments(shop)[1]")
	h.command("both")
	h.eventually("pods(shop,data)[4]")
	h.press(tcell.KeyRune, ')')
	h.eventually("secrets(shop)[1]")
	h.press(tcell.KeyCtrlU, 0) // overrides nothing here, but is looked up first
	h.eventually("pods(shop)[3]")
	h.press(tcell.KeyRune, '?')
	h.eventually("the secrets (:secrets)")
	h.contains("shift-0")
}
