package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/config"
)

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
