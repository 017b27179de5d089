package config

import (
	"fmt"
	"sort"
	"strings"
)

// hotkeysFile is k9s's hotkeys.yaml:
//
//	hotKeys:
//	  shift-0:
//	    shortCut: Shift-0
//	    description: Viewing pods
//	    command: pods
type hotkeysFile struct {
	HotKeys map[string]struct {
		ShortCut    string `json:"shortCut"`
		Description string `json:"description"`
		Command     string `json:"command"`
		Override    bool   `json:"override"`
		KeepHistory bool   `json:"keepHistory"`
	} `json:"hotKeys"`
}

// HotKey is a key that runs a command of the command bar.
type HotKey struct {
	// Name is the entry's name in the file; ShortCut the key as written there (k9s's names: a, Shift-A,
	// Shift-0 for ')', Ctrl-U, F1 …).
	Name, ShortCut string
	Description    string
	Command        string
	// Override makes the key win over the view's own key.
	Override bool
}

// LoadHotKeys reads the hotkeys file of d (kscope's, else k9s's), sorted by name.
func LoadHotKeys(d Dirs) ([]HotKey, File, error) {
	f := d.find("hotkeys", "hotkeys.yaml")
	var raw hotkeysFile
	if err := read(f, &raw); err != nil {
		return nil, f, err
	}
	var out []HotKey
	for name, h := range raw.HotKeys {
		if strings.TrimSpace(h.ShortCut) == "" || strings.TrimSpace(h.Command) == "" {
			return nil, f, Problem{Path: f.Path, Text: fmt.Sprintf("hotkey %q needs a shortCut and a command", name)}
		}
		out = append(out, HotKey{Name: name, ShortCut: strings.TrimSpace(h.ShortCut), Description: h.Description,
			Command: resourceForm(strings.TrimSpace(h.Command)), Override: h.Override})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, f, nil
}
