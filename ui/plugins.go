package ui

import (
	"fmt"
	"maps"
	"os"
	"strings"

	"kscope/config"
	"kscope/discovery"
	"kscope/pluginvars"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/watch"
)

// pluginKey is a configured plugin and its key, read once at start.
type pluginKey struct {
	plugin config.Plugin
	key    keymap.Binding
}

// pluginSet is the configured plugins: plugins.yaml's and its folders' (global), with each context's
// plugins file over them (read the first time a context's keys are needed), and the background runs.
// UI goroutine only, but runs.
type pluginSet struct {
	global    []pluginKey
	byContext map[string][]pluginKey // cluster + "\x00" + context → its plugins
	runs      pluginRuns
}

// PluginHost is a screen whose selection the configured plugins act on (a table, a logs view of one pod): a
// Screen that implements it gets, among its keys, those of the plugins whose scopes name it. UI goroutine
// only.
type PluginHost interface {
	// PluginScopes are the names a plugin's scopes may give to apply here (case does not matter).
	PluginScopes() []string
	// PluginSubject is what the selection is called ("pods web-1") and its variables (the app adds the
	// connection's: CONTEXT, CLUSTER, USER, GROUPS, KUBECONFIG); false when there is nothing to act on (the
	// host said why).
	PluginSubject() (what string, env map[string]string, ok bool)
}

// resourceScopes are the names of res a plugin's scopes may use: plural, singular, kind, short names,
// full name.
func resourceScopes(res discovery.Resource) []string {
	return append([]string{res.Name, res.SingularName, res.Kind, res.FullName()}, res.ShortNames...)
}

// pluginApplies tells whether p's scopes name one of names ("all": every resource), case-insensitively.
func pluginApplies(p config.Plugin, names []string) bool {
	for _, s := range p.Scopes {
		for _, n := range append(names, "all") {
			if n != "" && strings.EqualFold(s, n) {
				return true
			}
		}
	}
	return false
}

// pluginBindings are the configured plugins that apply to v, as keys acting on its selection: those with
// override: true (they take a key the view binds), then the others (a view's key wins over them).
func (a *App) pluginBindings(v Screen) (override, normal []keymap.Binding) {
	host, ok := v.(PluginHost)
	if t, table := v.(*livetable.Table); table {
		host, ok = tablePlugins{a, t}, true
	}
	if !ok {
		return nil, nil
	}
	scopes := host.PluginScopes()
	for _, pk := range a.activePlugins() {
		p := pk.plugin
		if !pluginApplies(p, scopes) {
			continue
		}
		desc := p.Description
		if desc == "" {
			desc = p.Command + " " + strings.Join(p.Args, " ")
		}
		b := pk.key.Does("plugin "+p.Name, desc, func() {
			if what, env, ok := host.PluginSubject(); ok {
				all := a.connectionEnv()
				maps.Copy(all, env)
				a.startPlugin(p, what, all)
			}
		})
		if p.Override {
			override = append(override, b)
		} else {
			normal = append(normal, b)
		}
	}
	return override, normal
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

// pluginEnv is the variables of row, an object of res, as k9s names them; columns are the row's cells by
// column name (COL-NAME …), filter the table's filter.
func (a *App) pluginEnv(res discovery.Resource, row *watch.Row, columns map[string]string, filter string) map[string]string {
	env := a.connectionEnv()
	for k, v := range map[string]string{"NAME": row.Name, "NAMESPACE": row.Namespace, "RESOURCE_NAME": res.Name,
		"RESOURCE_GROUP": res.Group, "RESOURCE_VERSION": res.Version, "FILTER": filter} {
		env[k] = v
	}
	for name, v := range columns {
		env["COL-"+strings.ToUpper(name)] = v
	}
	return env
}

// connectionEnv is the variables of the connection: CONTEXT, CLUSTER, USER, GROUPS (kscope impersonates
// no group: empty), KUBECONFIG (the kubeconfig children get).
func (a *App) connectionEnv() map[string]string {
	info := a.cluster.Info()
	return map[string]string{"CONTEXT": info.Context, "CLUSTER": info.Cluster, "USER": info.User, "GROUPS": "",
		"KUBECONFIG": a.opts.Kubeconfig}
}

// startPlugin runs p on what (the selection, "pods web-1") whose variables env holds: refused when
// dangerous in read-only mode; its inputs asked for first, then asked to confirm when it says so.
func (a *App) startPlugin(p config.Plugin, what string, env map[string]string) {
	if p.Dangerous && a.opts.ReadOnly {
		a.errorf("read-only mode: refusing plugin %s (it is marked dangerous)", p.Name)
		return
	}
	if len(p.Inputs) == 0 {
		a.runPlugin(p, what, env)
		return
	}
	a.askInputs(p, func(values map[string]string) {
		for k, v := range values {
			env[k] = v
		}
		a.runPlugin(p, what, env)
	})
}

// runPlugin substitutes env into p's arguments (a value a shell could read as code refuses the run, in one
// line naming the plugin and the variable), asks first when p says confirm or dangerous, then runs it in
// the background or with the screen suspended until it exits. Every variable is in its environment too.
func (a *App) runPlugin(p config.Plugin, what string, env map[string]string) {
	args, err := pluginvars.SubstituteArgs(p.Args, env)
	if err != nil {
		a.errorf("plugin %s not run: %s", p.Name, err)
		return
	}
	vars := pluginvars.Environ(env)
	line := strings.TrimSpace(p.Command + " " + strings.Join(args, " "))
	run := func() {
		if p.Background {
			a.message("running " + line + " …")
			a.runBackground(p, vars, args)
			return
		}
		var err error
		mark := a.refusalMark()
		runIt := func() {
			cmd := a.childCommand(vars, p.Command, args...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			err = cmd.Run()
		}
		if !a.suspend(runIt) {
			runIt() // no screen to suspend (tests)
		}
		a.pluginDone(p, err, "", "", mark)
	}
	if p.Confirm || p.Dangerous {
		a.confirm(fmt.Sprintf("Run plugin %s on %s?\n%s", p.Name, what, line), "Run", run)
		return
	}
	run()
}
