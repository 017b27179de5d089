package ui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"kscope/config"
	"kscope/ui/keymap"
)

// shiftedDigits are the characters Shift-0 … Shift-9 stand for in k9s's key names (a US keyboard's).
const shiftedDigits = ")!@#$%^&*("

// parseShortCut reads a key as k9s's hotkeys.yaml names it: a character (a, 0, ?), Shift-A (A), Shift-0
// ()), Ctrl-U, or a named key (F1, Enter, Tab, PgUp …); case does not matter in the names.
func parseShortCut(s string) (keymap.Binding, error) {
	if r := []rune(s); len(r) == 1 {
		return keymap.Char(r[0]), nil
	}
	lower := strings.ToLower(s)
	if rest, ok := strings.CutPrefix(lower, "shift-"); ok && len(rest) == 1 {
		switch c := rest[0]; {
		case c >= 'a' && c <= 'z':
			return keymap.Shifted(rune(c - 'a' + 'A')), nil
		case c >= '0' && c <= '9':
			b := keymap.Char(rune(shiftedDigits[c-'0']))
			b.Label = "shift-" + rest
			return b, nil
		}
	}
	if rest, ok := strings.CutPrefix(lower, "ctrl-"); ok && len(rest) == 1 && rest[0] >= 'a' && rest[0] <= 'z' {
		return keymap.Key(tcell.KeyCtrlA+tcell.Key(rest[0]-'a'), "ctrl-"+rest), nil
	}
	for k, name := range tcell.KeyNames {
		if strings.EqualFold(name, s) && k != tcell.KeyRune {
			return keymap.Key(k, strings.ToLower(name)), nil
		}
	}
	return keymap.Binding{}, fmt.Errorf("unknown key %q (keys are written a, Shift-A, Shift-0, Ctrl-U, F1 …)", s)
}

// hotkeyBindings turns the configured hotkeys into bindings that run their command, the overriding ones
// first; a key that cannot be read is said in bad.
func hotkeyBindings(a *App, hotkeys []config.HotKey) (override, normal []keymap.Binding, bad []string) {
	for _, h := range hotkeys {
		b, err := parseShortCut(h.ShortCut)
		if err != nil {
			bad = append(bad, fmt.Sprintf("hotkey %s: %s", h.Name, err))
			continue
		}
		command := h.Command
		desc := h.Description
		if desc == "" {
			desc = ":" + command
		}
		b = b.Does("hotkey "+h.Name, desc+" (:"+command+")", func() { a.command(command) })
		if h.Override {
			override = append(override, b)
		} else {
			normal = append(normal, b)
		}
	}
	return override, normal, bad
}

// expandAlias replaces an alias at the start of a command line with what it stands for (once: an alias
// naming another alias is not expanded again).
func (a *App) expandAlias(text string) string {
	first, rest, _ := strings.Cut(strings.TrimSpace(text), " ")
	target, ok := a.opts.Aliases[first]
	if !ok {
		return text
	}
	if rest = strings.TrimSpace(rest); rest != "" {
		return target + " " + rest
	}
	return target
}
