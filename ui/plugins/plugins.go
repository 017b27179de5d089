package plugins

import (
	"fmt"
	"maps"
	"os"
	"strings"

	"kscope/config"
	"kscope/discovery"
	"kscope/pluginvars"
	"kscope/ui/keymap"
	"kscope/watch"
)

// key is a configured plugin and its key, read once at start.
type key struct {
	plugin config.Plugin
	key    keymap.Binding
}

// Set is the configured plugins as they act through one host (one cluster's App): plugins.yaml's and its
// folders' (global), with each context's plugins file over them (read the first time a context's keys are
// needed), and the background runs. The Sets On returns share all of that but the host. UI goroutine only,
// but Runs and Wait.
type Set struct {
	h Host
	*shared
}

// shared is what every Set of one session shares: the plugins read, the contexts' files read, the runs.
type shared struct {
	global    []key
	byContext map[string][]key // cluster + "\x00" + context → its plugins
	// perContext reads a context's plugins file (nil: none are read).
	perContext func(cluster, context string) ([]config.Plugin, error)
	runs       runs
}

// New reads the plugins' keys (once, at start) for the app h; perContext, when set, reads a kubeconfig
// context's plugins file (its plugins replace the global ones of the same name). Those that cannot be
// read are left out and said in bad.
func New(h Host, global []config.Plugin, perContext func(cluster, context string) ([]config.Plugin, error)) (s *Set, bad []string) {
	s = &Set{h: h, shared: &shared{perContext: perContext, runs: runs{slots: make(chan struct{}, MaxBackground)}}}
	s.global, bad = parse(global)
	return s, bad
}

// On returns the plugins of s acting through h, the host of another cluster of the session (a row's, in a
// table of several clusters): the plugins of h's context (its plugins file over the global ones), run with
// h's connection variables and h's children's environment (its kubeconfig, its read-only proxy), asking
// through h (whose questions name its context). The background runs are counted with s's: Wait waits for
// both. UI goroutine only.
func (s *Set) On(h Host) *Set { return &Set{h: h, shared: s.shared} }

// Subject is a screen whose selection the configured plugins act on (a table, a logs view of one pod): a
// screen that implements it gets, among its keys, those of the plugins whose scopes name it. UI goroutine
// only.
type Subject interface {
	// PluginScopes are the names a plugin's scopes may give to apply here (case does not matter).
	PluginScopes() []string
	// PluginSubject is what the selection is called ("pods web-1") and its variables (the app adds the
	// connection's: CONTEXT, CLUSTER, USER, GROUPS, KUBECONFIG); false when there is nothing to act on (the
	// subject said why).
	PluginSubject() (what string, env map[string]string, ok bool)
}

// Configured tells whether b comes from plugins.yaml or hotkeys.yaml (a plugin's or a hotkey's key).
func Configured(b keymap.Binding) bool {
	return strings.HasPrefix(b.Name, "plugin ") || strings.HasPrefix(b.Name, "hotkey ")
}

// ResourceScopes are the names of res a plugin's scopes may use: plural, singular, kind, short names,
// full name.
func ResourceScopes(res discovery.Resource) []string {
	return append([]string{res.Name, res.SingularName, res.Kind, res.FullName()}, res.ShortNames...)
}

// applies tells whether p's scopes name one of names ("all": every resource), case-insensitively.
func applies(p config.Plugin, names []string) bool {
	for _, s := range p.Scopes {
		for _, n := range append(names, "all") {
			if n != "" && strings.EqualFold(s, n) {
				return true
			}
		}
	}
	return false
}

// Bindings are the configured plugins that apply to sub, as keys acting on its selection: those with
// override: true (they take a key the screen binds), then the others (a screen's key wins over them).
func (s *Set) Bindings(sub Subject) (override, normal []keymap.Binding) {
	scopes := sub.PluginScopes()
	for _, pk := range s.active() {
		p := pk.plugin
		if !applies(p, scopes) {
			continue
		}
		desc := p.Description
		if desc == "" {
			desc = p.Command + " " + strings.Join(p.Args, " ")
		}
		b := pk.key.Does("plugin "+p.Name, desc, func() {
			if m, ok := sub.(MarkedSubject); ok {
				if whats, envs := m.PluginMarked(); len(whats) > 0 {
					s.startMarked(p, whats, envs)
					return
				}
			}
			if what, env, ok := sub.PluginSubject(); ok {
				all := s.connectionEnv()
				maps.Copy(all, env)
				s.start(p, what, all)
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

// parse reads the plugins' keys; those that cannot be read are left out and said in bad.
func parse(plugins []config.Plugin) (keys []key, bad []string) {
	for _, p := range plugins {
		b, err := keymap.Parse(p.ShortCut)
		if err != nil {
			bad = append(bad, fmt.Sprintf("plugin %s: %s", p.Name, err))
			continue
		}
		keys = append(keys, key{plugin: p, key: b})
	}
	return keys, bad
}

// RowEnv is the variables of row, an object of res, as k9s names them (the connection's are added when a
// plugin runs); columns are the row's cells by column name (COL-NAME …), filter the table's filter.
func RowEnv(res discovery.Resource, row *watch.Row, columns map[string]string, filter string) map[string]string {
	env := map[string]string{"NAME": row.Name, "NAMESPACE": row.Namespace, "RESOURCE_NAME": res.Name,
		"RESOURCE_GROUP": res.Group, "RESOURCE_VERSION": res.Version, "FILTER": filter}
	for name, v := range columns {
		env["COL-"+strings.ToUpper(name)] = v
	}
	return env
}

// connectionEnv is the variables of the connection: CONTEXT, CLUSTER, USER, GROUPS (kscope impersonates
// no group: empty), KUBECONFIG (the kubeconfig children get).
func (s *Set) connectionEnv() map[string]string {
	info := s.h.Cluster().Info()
	return map[string]string{"CONTEXT": info.Context, "CLUSTER": info.Cluster, "USER": info.User, "GROUPS": "",
		"KUBECONFIG": s.h.Kubeconfig()}
}

// start runs p on what (the selection, "pods web-1") whose variables env holds: refused when dangerous in
// read-only mode; its inputs asked for first, then asked to confirm when it says so.
func (s *Set) start(p config.Plugin, what string, env map[string]string) {
	if p.Dangerous && s.h.ReadOnly() {
		s.h.Errorf("read-only mode: refusing plugin %s (it is marked dangerous)", p.Name)
		return
	}
	if len(p.Inputs) == 0 {
		s.run(p, what, env)
		return
	}
	s.askInputs(p, func(values map[string]string) {
		maps.Copy(env, values)
		s.run(p, what, env)
	})
}

// run substitutes env into p's arguments (a value a shell could read as code refuses the run, in one line
// naming the plugin and the variable), asks first when p says confirm or dangerous, then runs it in the
// background or with the screen suspended until it exits. Every variable is in its environment too.
func (s *Set) run(p config.Plugin, what string, env map[string]string) {
	h := s.h
	args, err := pluginvars.SubstituteArgs(p.Args, env)
	if err != nil {
		h.Errorf("plugin %s not run: %s", p.Name, err)
		return
	}
	vars := pluginvars.Environ(env)
	line := strings.TrimSpace(p.Command + " " + strings.Join(args, " "))
	run := func() {
		if p.Background {
			h.Message("running " + line + " …")
			s.runBackground(p, vars, args)
			return
		}
		var err error
		mark := h.RefusalMark()
		runIt := func() {
			cmd := command(h, vars, p.Command, args...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			err = cmd.Run()
		}
		if !h.Suspend(runIt) {
			runIt() // no screen to suspend (tests)
		}
		s.done(p, err, "", "", mark)
	}
	if p.Confirm || p.Dangerous {
		h.Confirm(fmt.Sprintf("Run plugin %s on %s?\n%s", p.Name, what, line), "Run", run)
		return
	}
	run()
}
