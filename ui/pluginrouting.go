package ui

import (
	"strings"

	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/ui/plugins"
)

// In a table of several clusters a plugin acts on the row's cluster, as the verbs do (tablerouting.go):
// it runs as that cluster's context configures it (its plugins file over the global ones), with that
// cluster's CONTEXT, CLUSTER, USER and KUBECONFIG (in read-only mode, its own read-only proxy's), and its
// question names that context. Marked rows of several clusters run each on its own cluster.

// routedPlugins are the plugins of t, a table of several clusters (cr), as keys: the session's cluster's
// plugins are the template (the keys, the help); pressing one runs the plugin of that name of the
// selected row's cluster through that cluster's App, or, with rows marked, once per marked row, each
// through its own cluster's App (runRoutedPlugin). UI goroutine only.
func (a *App) routedPlugins(t *livetable.Table, cr clusterRows) (override, normal []keymap.Binding) {
	over, norm := a.home.plugins.Bindings(plugins.Table{Table: t})
	route := func(bs []keymap.Binding) []keymap.Binding {
		out := make([]keymap.Binding, len(bs))
		for i, b := range bs {
			name := strings.TrimPrefix(b.Name, "plugin ")
			out[i] = b.Does(b.Name, b.Description, func() { a.runRoutedPlugin(t, cr, name) })
		}
		return out
	}
	return route(over), route(norm)
}

// runRoutedPlugin runs the plugin called name on t's marked rows, each on its own cluster, or else on the
// selected row's cluster; a row whose cluster is not connected, or whose context has no such plugin,
// refuses the run with one line. UI goroutine only.
func (a *App) runRoutedPlugin(t *livetable.Table, cr clusterRows, name string) {
	if marked := t.Marked(); len(marked) > 0 {
		a.runRoutedPluginMarked(t, cr, name)
		return
	}
	row, ghost := t.Selected()
	if row == nil || ghost {
		t.Subject() // says why (a deleted row)
		return
	}
	c, ctx, ok := cr.ClusterOf(row)
	if !ok {
		a.Errorf("plugin %s not run: the row's cluster is not connected", name)
		return
	}
	m := a.memberApp(c, ctx)
	over, norm := m.plugins.Bindings(rowSubject{t: t})
	for _, b := range append(over, norm...) {
		if b.Name == "plugin "+name {
			b.Run()
			return
		}
	}
	a.Errorf("plugin %s not run: context %s has no plugin %s", name, ctx, name)
}

// runRoutedPluginMarked runs the plugin called name once per marked row of t, the rows grouped by cluster,
// each group through its cluster's App; the one question (when the plugin asks first) lists every row with
// its context (pods web-1 @prod).
func (a *App) runRoutedPluginMarked(t *livetable.Table, cr clusterRows, name string) {
	whats, envs := plugins.Table{Table: t}.PluginMarked() // one a row, in t.Marked()'s order
	var groups []plugins.Group
	index := map[*App]int{}
	for k, row := range t.Marked() {
		c, ctx, ok := cr.ClusterOf(row)
		if !ok {
			a.Errorf("plugin %s not run: the cluster of %s is not connected", name, row.Name)
			return
		}
		m := a.memberApp(c, ctx)
		i, seen := index[m]
		if !seen {
			i = len(groups)
			index[m] = i
			groups = append(groups, plugins.Group{Set: m.plugins})
		}
		groups[i].Whats = append(groups[i].Whats, whats[k]+" @"+ctx)
		groups[i].Envs = append(groups[i].Envs, envs[k])
	}
	a.home.plugins.StartMarked(name, groups)
}

// rowSubject is the selected row of a table of several clusters as the subject of one cluster's plugins:
// its marks are not its own (runRoutedPluginMarked runs those), so it offers the selected row only.
type rowSubject struct{ t *livetable.Table }

// PluginScopes implements plugins.Subject.
func (s rowSubject) PluginScopes() []string { return plugins.Table{Table: s.t}.PluginScopes() }

// PluginSubject implements plugins.Subject.
func (s rowSubject) PluginSubject() (string, map[string]string, bool) {
	return plugins.Table{Table: s.t}.PluginSubject()
}
