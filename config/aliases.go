package config

import (
	"fmt"
	"sort"
	"strings"
)

// aliasesFile is k9s's aliases.yaml: `aliases: {dp: apps/v1/deployments, pp: v1/pods}`.
type aliasesFile struct {
	Aliases map[string]string `json:"aliases"`
}

// Aliases maps a name typed after `:` to what it stands for: a command line whose first word names a
// resource as kscope's command bar takes it (deployments.apps, pods), the rest as typed (namespaces).
type Aliases map[string]string

// LoadAliases reads the aliases file of d (kscope's, else k9s's). k9s's resource form GROUP/VERSION/RESOURCE
// (apps/v1/deployments, v1/pods) becomes RESOURCE.GROUP (deployments.apps, pods).
func LoadAliases(d Dirs) (Aliases, File, error) {
	f := d.find("aliases", "aliases.yaml")
	var raw aliasesFile
	if err := read(f, &raw); err != nil {
		return nil, f, err
	}
	out := Aliases{}
	for name, target := range raw.Aliases {
		name, target = strings.TrimSpace(name), strings.TrimSpace(target)
		if name == "" || target == "" || strings.ContainsAny(name, " \t") {
			return nil, f, Problem{Path: f.Path, Text: fmt.Sprintf("alias %q → %q: an alias is one word for a non-empty command", name, target)}
		}
		out[name] = resourceForm(target)
	}
	return out, f, nil
}

// resourceForm turns k9s's GROUP/VERSION/RESOURCE or VERSION/RESOURCE first word into RESOURCE.GROUP or
// RESOURCE; other words are kept.
func resourceForm(command string) string {
	first, rest, _ := strings.Cut(command, " ")
	parts := strings.Split(first, "/")
	switch len(parts) {
	case 2: // v1/pods
		first = parts[1]
	case 3: // apps/v1/deployments
		first = parts[2] + "." + parts[0]
	}
	if rest != "" {
		return first + " " + rest
	}
	return first
}

// Names returns the aliases' names, sorted.
func (a Aliases) Names() []string {
	names := make([]string, 0, len(a))
	for n := range a {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
