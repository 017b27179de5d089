package ui

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"

	"kscope/config"
	"kscope/discovery"
	"kscope/watch"
)

// pluginApplies tells whether p's scopes name res (its plural, singular, kind, short names or full name;
// "all" for every resource), case-insensitively.
func pluginApplies(p config.Plugin, res discovery.Resource) bool {
	names := append([]string{res.Name, res.SingularName, res.Kind, res.FullName()}, res.ShortNames...)
	for _, s := range p.Scopes {
		for _, n := range append(names, "all") {
			if n != "" && strings.EqualFold(s, n) {
				return true
			}
		}
	}
	return false
}

// pluginKey is a configured plugin and its key, read once at start.
type pluginKey struct {
	plugin config.Plugin
	key    Binding
}

// pluginBindings are the configured plugins that apply to res, as keys acting on the object subject returns;
// env gives the variables of that object's row. A plugin whose key cannot be read is not among a.plugins
// (parsePlugins said so at start).
func (a *App) pluginBindings(res discovery.Resource, subject subjectFunc, env func(*watch.Row) map[string]string) []Binding {
	var out []Binding
	for _, pk := range a.plugins {
		p, b := pk.plugin, pk.key
		if !pluginApplies(p, res) {
			continue
		}
		desc := p.Description
		if desc == "" {
			desc = p.Command + " " + strings.Join(p.Args, " ")
		}
		out = append(out, b.does("plugin "+p.Name, desc, func() {
			if res, row, ok := subject(); ok {
				a.runPlugin(p, res, env(row))
			}
		}))
	}
	return out
}

// parsePlugins reads the plugins' keys (once, at start); those that cannot be read are left out and said
// in bad.
func parsePlugins(plugins []config.Plugin) (keys []pluginKey, bad []string) {
	for _, p := range plugins {
		b, err := parseShortCut(p.ShortCut)
		if err != nil {
			bad = append(bad, fmt.Sprintf("plugin %s: %s", p.Name, err))
			continue
		}
		keys = append(keys, pluginKey{plugin: p, key: b})
	}
	return keys, bad
}

// pluginEnv is the variables of row, an object of res, as k9s names them.
func (a *App) pluginEnv(res discovery.Resource, row *watch.Row, columns map[string]string, filter string) map[string]string {
	info := a.cluster.Info()
	env := map[string]string{
		"NAME": row.Name, "NAMESPACE": row.Namespace, "CONTEXT": info.Context, "CLUSTER": info.Cluster,
		"USER": info.User, "KUBECONFIG": a.opts.Kubeconfig, "RESOURCE_NAME": res.Name,
		"RESOURCE_GROUP": res.Group, "RESOURCE_VERSION": res.Version, "FILTER": filter,
	}
	for name, v := range columns {
		env["COL-"+strings.ToUpper(name)] = v
	}
	return env
}

// pluginVariable matches $NAME, $COL-STATUS, ${COL-%CPU/R} in a plugin's argument.
var pluginVariable = regexp.MustCompile(`\$\{([\w\-%/: ]+)\}|\$([\w\-]+)`)

// substitute replaces the variables of env in arg (longest names first: $COL-NAME before $NAME); a
// variable env does not have is left as written.
func substitute(arg string, env map[string]string) string {
	var longestFirst []string // the variable names, longest first, sorted at the first $NAME-suffix
	return pluginVariable.ReplaceAllStringFunc(arg, func(m string) string {
		name := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(m, "$"), "{"), "}")
		if v, ok := env[strings.ToUpper(name)]; ok {
			return v
		}
		// $NAMEX: the longest known name that starts it, the rest kept ($NAME-suffix)
		if longestFirst == nil {
			for k := range env {
				longestFirst = append(longestFirst, k)
			}
			sort.Slice(longestFirst, func(i, j int) bool { return len(longestFirst[i]) > len(longestFirst[j]) })
		}
		for _, k := range longestFirst {
			if !strings.HasPrefix(m, "${") && strings.HasPrefix(strings.ToUpper(name), k) {
				return env[k] + name[len(k):]
			}
		}
		return m
	})
}

// runPlugin runs p on the object whose variables env holds: refused when dangerous in read-only mode,
// asked first when it says confirm; in the background, or with the screen suspended until it exits.
func (a *App) runPlugin(p config.Plugin, res discovery.Resource, env map[string]string) {
	if p.Dangerous && a.opts.ReadOnly {
		a.errorf("read-only mode: refusing plugin %s (it is marked dangerous)", p.Name)
		return
	}
	args := make([]string, len(p.Args))
	for i, arg := range p.Args {
		args[i] = substitute(arg, env)
	}
	line := strings.TrimSpace(p.Command + " " + strings.Join(args, " "))
	run := func() {
		if p.Background {
			a.message("running " + line + " …")
			a.goSafe(func() {
				out, err := exec.Command(p.Command, args...).CombinedOutput()
				a.tv.QueueUpdateDraw(func() { a.pluginDone(p, err, string(out)) })
			})
			return
		}
		var err error
		runIt := func() {
			cmd := exec.Command(p.Command, args...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			err = cmd.Run()
		}
		if !a.suspend(runIt) {
			runIt() // no screen to suspend (tests)
		}
		a.pluginDone(p, err, "")
	}
	if p.Confirm || p.Dangerous {
		a.confirm(fmt.Sprintf("Run plugin %s on %s %s?\n%s", p.Name, res.Name, env["NAME"], line), "Run", run)
		return
	}
	run()
}

// pluginDone says how a plugin ended (with the last line of a background plugin's output).
func (a *App) pluginDone(p config.Plugin, err error, out string) {
	last := ""
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) > 0 && lines[len(lines)-1] != "" {
		last = ": " + lines[len(lines)-1]
	}
	if err != nil {
		a.errorf("plugin %s: %s%s", p.Name, err, last)
		return
	}
	a.message("plugin " + p.Name + " done" + last)
}
