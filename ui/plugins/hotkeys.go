package plugins

import (
	"fmt"

	"kscope/config"
	"kscope/ui/keymap"
)

// HotKeys turns the configured hotkeys into bindings that run their command line with command, the
// overriding ones first; a key that cannot be read is said in bad.
func HotKeys(hotkeys []config.HotKey, command func(line string)) (override, normal []keymap.Binding, bad []string) {
	for _, h := range hotkeys {
		b, err := keymap.Parse(h.ShortCut)
		if err != nil {
			bad = append(bad, fmt.Sprintf("hotkey %s: %s", h.Name, err))
			continue
		}
		line := h.Command
		desc := h.Description
		if desc == "" {
			desc = ":" + line
		}
		b = b.Does("hotkey "+h.Name, desc+" (:"+line+")", func() { command(line) })
		if h.Override {
			override = append(override, b)
		} else {
			normal = append(normal, b)
		}
	}
	return override, normal, bad
}
