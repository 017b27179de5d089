package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// rawPlugin is one plugin as k9s's files write it:
//
//	plugins:
//	  pod-logs:
//	    shortCut: Ctrl-L
//	    description: Follow the logs
//	    scopes: [pods]
//	    command: kubectl
//	    args: [logs, -f, $NAME, -n, $NAMESPACE, --context, $CONTEXT]
type rawPlugin struct {
	ShortCut    string     `json:"shortCut"`
	Description string     `json:"description"`
	Scopes      []string   `json:"scopes"`
	Command     string     `json:"command"`
	Args        []string   `json:"args"`
	Background  bool       `json:"background"`
	Confirm     *bool      `json:"confirm"`
	Dangerous   bool       `json:"dangerous"`
	Override    bool       `json:"override"`
	Inputs      []rawInput `json:"inputs"`
}

// rawInput is an input as written: YAML makes `default: 3`, `default: true` or `name: n` numbers and
// booleans, which k9s reads as their text.
type rawInput struct {
	Name     scalar   `json:"name"`
	Label    scalar   `json:"label"`
	Type     scalar   `json:"type"`
	Required bool     `json:"required"`
	Default  scalar   `json:"default"`
	Options  []scalar `json:"options"`
}

// scalar is a YAML scalar read as its text (a number or boolean too).
type scalar string

func (s *scalar) UnmarshalJSON(data []byte) error {
	var text string
	if err := json.Unmarshal(data, &text); err == nil {
		*s = scalar(text)
		return nil
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch v.(type) {
	case bool, float64, nil:
		*s = scalar(strings.TrimSpace(string(data)))
		if v == nil {
			*s = ""
		}
		return nil
	}
	return fmt.Errorf("want text, not %s", data)
}

func (r rawInput) input() PluginInput {
	opts := make([]string, len(r.Options))
	for i, o := range r.Options {
		opts[i] = string(o)
	}
	return PluginInput{Name: string(r.Name), Label: string(r.Label), Type: string(r.Type), Required: r.Required,
		Default: string(r.Default), Options: opts}
}

// PluginInput is a value a plugin asks for before it runs (k9s 0.51's inputs): its args read it as
// $INPUT_NAME (the name upper-cased).
type PluginInput struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	// Type is string, number, bool or dropdown (one of Options).
	Type     string   `json:"type"`
	Required bool     `json:"required"`
	Default  string   `json:"default"`
	Options  []string `json:"options"`
}

// maxPluginInputs is how many inputs a plugin may ask for (k9s's limit).
const maxPluginInputs = 5

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
	// Confirm asks first (by default when it has inputs, as k9s does); Dangerous marks a plugin that
	// changes the cluster (refused in read-only mode).
	Confirm, Dangerous bool
	// Override makes the key win over the view's own key.
	Override bool
	// Inputs are asked for before it runs.
	Inputs []PluginInput
	// File is the file it was read from.
	File string
}

// LoadPlugins reads the plugins of d: the plugins file (kscope's, else k9s's), then every .yaml file under
// the plugins folders (kscope's, k9s's and k9s's data folder, as k9s 0.51 reads them: a file holds one
// plugin named by the file, a `plugins:` document, or plugins by name); a later plugin of the same name
// replaces an earlier one. A file that cannot be used is left out and is one line of the error; the others
// are read. Sorted by name.
func LoadPlugins(d Dirs) ([]Plugin, File, error) {
	f := d.find("plugins", "plugins.yaml")
	byName := map[string]Plugin{}
	var problems Problems
	if err := loadPluginFile(f, byName, true); err != nil {
		problems = append(problems, asProblem(err, f.Path))
	}
	for _, dir := range pluginDirs(d) {
		problems = append(problems, loadPluginDir(dir, byName)...)
	}
	return sortedPlugins(byName), f, orNil(problems)
}

// LoadContextPlugins reads the plugins file of the kubeconfig context named context, of cluster:
// kscope's clusters/CLUSTER/CONTEXT/plugins.yaml, else k9s's (under Dirs.K9sData), ':' and '/' in the
// names made '-' as k9s writes them. Its plugins replace those of the same name.
func LoadContextPlugins(d Dirs, cluster, context string) ([]Plugin, File, error) {
	sub := filepath.Join("clusters", sanitize(cluster), sanitize(context))
	in := Dirs{KScope: filepath.Join(d.KScope, sub)}
	if d.K9sData != "" {
		in.K9s = filepath.Join(d.K9sData, sub)
	}
	f := in.find("context plugins", "plugins.yaml")
	byName := map[string]Plugin{}
	if err := loadPluginFile(f, byName, true); err != nil {
		return nil, f, err
	}
	return sortedPlugins(byName), f, nil
}

// asProblem is err (from read or loadPluginFile) as a Problem of path.
func asProblem(err error, path string) Problem {
	var p Problem
	if errors.As(err, &p) {
		return p
	}
	return Problem{Path: path, Text: err.Error()}
}

// orNil is ps as an error: nil when there are none.
func orNil(ps Problems) error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// pluginDirs are the plugins folders of d, each once.
func pluginDirs(d Dirs) []string {
	var out []string
	for _, base := range []string{d.KScope, d.K9s, d.K9sData} {
		if dir := filepath.Join(base, "plugins"); base != "" && !contains(out, dir) {
			out = append(out, dir)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// loadPluginDir reads every .yaml/.yml file under dir (in path order) into byName.
func loadPluginDir(dir string, byName map[string]Plugin) Problems {
	var problems Problems
	_ = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		switch {
		case err != nil && path == dir:
			return nil // no such folder
		case err != nil:
			problems = append(problems, Problem{Path: path, Text: err.Error()})
			return nil
		case e.IsDir():
			return nil
		}
		if ext := filepath.Ext(path); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		f := File{Kind: "plugins", Path: path, From: "folder"}
		if err := loadPluginFile(f, byName, false); err != nil {
			problems = append(problems, asProblem(err, path))
		}
		return nil
	})
	return problems
}

// loadPluginFile reads f into byName: all or nothing. The plugins file is a `plugins:` document; a
// folder's file may also be one plugin (named by the file) or plugins by name.
func loadPluginFile(f File, byName map[string]Plugin, pluginsOnly bool) error {
	var doc map[string]json.RawMessage
	if err := read(f, &doc); err != nil {
		return err
	}
	if doc == nil {
		return nil
	}
	raw := map[string]rawPlugin{}
	var err error
	switch _, isPlugins := doc["plugins"]; {
	case isPlugins || pluginsOnly:
		var p struct {
			Plugins map[string]rawPlugin `json:"plugins"`
		}
		err = remarshal(doc, &p)
		raw = p.Plugins
	case doc["shortCut"] != nil || doc["command"] != nil:
		var p rawPlugin
		err = remarshal(doc, &p)
		raw[strings.TrimSuffix(filepath.Base(f.Path), filepath.Ext(f.Path))] = p
	default:
		err = remarshal(doc, &raw)
	}
	if err != nil {
		return Problem{Path: f.Path, Text: err.Error()}
	}
	got := map[string]Plugin{}
	for name, p := range raw {
		plugin, err := p.plugin(name, f.Path)
		if err != nil {
			return Problem{Path: f.Path, Text: err.Error()}
		}
		got[name] = plugin
	}
	for name, p := range got {
		byName[name] = p
	}
	return nil
}

// remarshal decodes doc, a parsed document, into v.
func remarshal(doc map[string]json.RawMessage, v any) error {
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// plugin checks p and makes it a Plugin called name.
func (p rawPlugin) plugin(name, path string) (Plugin, error) {
	if strings.TrimSpace(p.ShortCut) == "" || strings.TrimSpace(p.Command) == "" || len(p.Scopes) == 0 {
		return Plugin{}, fmt.Errorf("plugin %q needs a shortCut, a command and scopes", name)
	}
	inputs := make([]PluginInput, len(p.Inputs))
	for i, in := range p.Inputs {
		inputs[i] = in.input()
	}
	if err := checkInputs(inputs); err != nil {
		return Plugin{}, fmt.Errorf("plugin %q: %w", name, err)
	}
	confirm := len(p.Inputs) > 0
	if p.Confirm != nil {
		confirm = *p.Confirm
	}
	return Plugin{Name: name, ShortCut: strings.TrimSpace(p.ShortCut), Description: p.Description,
		Scopes: p.Scopes, Command: p.Command, Args: p.Args, Background: p.Background, Confirm: confirm,
		Dangerous: p.Dangerous, Override: p.Override, Inputs: inputs, File: path}, nil
}

// checkInputs says what is wrong with a plugin's inputs, as k9s 0.51 checks them.
func checkInputs(inputs []PluginInput) error {
	if len(inputs) > maxPluginInputs {
		return fmt.Errorf("%d inputs: at most %d", len(inputs), maxPluginInputs)
	}
	seen := map[string]bool{}
	for _, in := range inputs {
		switch {
		case strings.TrimSpace(in.Name) == "":
			return fmt.Errorf("an input needs a name")
		case seen[strings.ToUpper(in.Name)]:
			return fmt.Errorf("input %q twice", in.Name)
		case !contains([]string{"string", "number", "bool", "dropdown"}, in.Type):
			return fmt.Errorf("input %q: type %q is not string, number, bool or dropdown", in.Name, in.Type)
		case in.Type == "dropdown" && len(in.Options) == 0:
			return fmt.Errorf("input %q: a dropdown needs options", in.Name)
		case in.Default == "":
		case in.Type == "dropdown" && !contains(in.Options, in.Default):
			return fmt.Errorf("input %q: default %q is not one of its options", in.Name, in.Default)
		case in.Type == "bool" && in.Default != "true" && in.Default != "false":
			return fmt.Errorf("input %q: default %q is not true or false", in.Name, in.Default)
		case in.Type == "number" && !isNumber(in.Default):
			return fmt.Errorf("input %q: default %q is not a number", in.Name, in.Default)
		}
		seen[strings.ToUpper(in.Name)] = true
	}
	return nil
}

// isNumber tells whether s is a number as an input of type number takes it.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func sortedPlugins(byName map[string]Plugin) []Plugin {
	out := make([]Plugin, 0, len(byName))
	for _, p := range byName {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
