package config

import (
	"fmt"
	"sort"
	"strings"
)

// pluginsFile is k9s's plugins.yaml:
//
//	plugins:
//	  pod-logs:
//	    shortCut: Ctrl-L
//	    description: Follow the logs
//	    scopes: [pods]
//	    command: kubectl
//	    args: [logs, -f, $NAME, -n, $NAMESPACE, --context, $CONTEXT]
type pluginsFile struct {
	Plugins map[string]struct {
		ShortCut    string   `json:"shortCut"`
		Description string   `json:"description"`
		Scopes      []string `json:"scopes"`
		Command     string   `json:"command"`
		Args        []string `json:"args"`
		Background  bool     `json:"background"`
		Confirm     bool     `json:"confirm"`
		Dangerous   bool     `json:"dangerous"`
		Override    bool     `json:"override"`
	} `json:"plugins"`
}

// Plugin is a command kscope runs on the selected object: its args may hold k9s's variables ($NAME,
// $NAMESPACE, $CONTEXT, $COL-STATUS …), substituted when it runs.
type Plugin struct {
	Name, ShortCut, Description string
	// Scopes are the resources it applies to (names, short names or kinds as typed after `:`; "all": every one).
	Scopes  []string
	Command string
	Args    []string
	// Background runs it without suspending the screen; otherwise the terminal is the plugin's until it exits.
	Background bool
	// Confirm asks first; Dangerous marks a plugin that changes the cluster (refused in read-only mode).
	Confirm, Dangerous bool
	// Override makes the key win over the view's own key.
	Override bool
}

// LoadPlugins reads the plugins file of d (kscope's, else k9s's), sorted by name.
func LoadPlugins(d Dirs) ([]Plugin, File, error) {
	f := d.find("plugins", "plugins.yaml")
	var raw pluginsFile
	if err := read(f, &raw); err != nil {
		return nil, f, err
	}
	var out []Plugin
	for name, p := range raw.Plugins {
		if strings.TrimSpace(p.ShortCut) == "" || strings.TrimSpace(p.Command) == "" || len(p.Scopes) == 0 {
			return nil, f, Problem{Path: f.Path, Text: fmt.Sprintf("plugin %q needs a shortCut, a command and scopes", name)}
		}
		out = append(out, Plugin{Name: name, ShortCut: strings.TrimSpace(p.ShortCut), Description: p.Description,
			Scopes: p.Scopes, Command: p.Command, Args: p.Args, Background: p.Background, Confirm: p.Confirm,
			Dangerous: p.Dangerous, Override: p.Override})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, f, nil
}
