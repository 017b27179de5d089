package config

import (
	"fmt"
	"sort"
	"strings"
)

// keysFile is kscope's keys.yaml (k9s has no such file): kscope's own keys, rebound by the name the help
// screen gives them.
//
//	keys:
//	  describe: Shift-D
//	  yaml: Ctrl-Y
type keysFile struct {
	Keys map[string]string `json:"keys"`
}

// KeyRemap binds kscope's key called Name (the help screen's NAME column) to Key, written as hotkeys.yaml
// writes keys (a, Shift-A, Shift-0, Ctrl-U, F1 …).
type KeyRemap struct {
	Name, Key string
}

// LoadKeys reads keys.yaml of kscope's folder (k9s has no such file), sorted by name.
func LoadKeys(d Dirs) ([]KeyRemap, File, error) {
	f := Dirs{KScope: d.KScope}.find("keys", "keys.yaml")
	var raw keysFile
	if err := read(f, &raw); err != nil {
		return nil, f, err
	}
	out := make([]KeyRemap, 0, len(raw.Keys))
	for name, key := range raw.Keys {
		name, key = strings.TrimSpace(name), strings.TrimSpace(key)
		if name == "" || key == "" {
			return nil, f, Problem{Path: f.Path, Text: fmt.Sprintf("keys: %q → %q: a key's name and its new key are both needed", name, key)}
		}
		out = append(out, KeyRemap{Name: name, Key: key})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, f, nil
}
