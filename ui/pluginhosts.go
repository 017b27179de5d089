package ui

import (
	"slices"
	"strings"

	"kscope/ui/livetable"
)

// activePlugins are the plugins of the current context: the global ones, replaced by name by those of
// the context's plugins file (Options.ContextPlugins), read once per context; what cannot be used of
// that file is said on the prompt line. UI goroutine only.
func (a *App) activePlugins() []pluginKey {
	if a.opts.ContextPlugins == nil || a.cluster == nil {
		return a.plugins.global
	}
	info := a.cluster.Info()
	id := info.Cluster + "\x00" + info.Context
	if keys, ok := a.plugins.byContext[id]; ok {
		return keys
	}
	own, err := a.opts.ContextPlugins(info.Cluster, info.Context)
	if err != nil {
		a.Notice(err.Error())
	}
	keys, bad := parsePlugins(own)
	for _, line := range bad {
		a.Notice(line)
	}
	merged := slices.DeleteFunc(slices.Clone(a.plugins.global), func(g pluginKey) bool {
		return slices.ContainsFunc(keys, func(k pluginKey) bool { return k.plugin.Name == g.plugin.Name })
	})
	merged = append(merged, keys...)
	slices.SortStableFunc(merged, func(x, y pluginKey) int { return strings.Compare(x.plugin.Name, y.plugin.Name) })
	if a.plugins.byContext == nil {
		a.plugins.byContext = map[string][]pluginKey{}
	}
	a.plugins.byContext[id] = merged
	return merged
}

// tablePlugins is a live table as a PluginHost: the plugins of its resource act on its selected row.
type tablePlugins struct {
	a *App
	t *livetable.Table
}

// PluginScopes: a table's plugins are those of its resource.
func (p tablePlugins) PluginScopes() []string { return resourceScopes(p.t.Resource()) }

// PluginSubject is the selected row and its variables (each column's cell as COL-NAME, FILTER the table's
// filter).
func (p tablePlugins) PluginSubject() (string, map[string]string, bool) {
	res, row, ok := p.t.Subject()
	if !ok {
		return "", nil, false
	}
	scope, _ := p.t.Scope() // (the selected row's kind in a table of several)
	return res.Name + " " + row.Name, p.a.pluginEnv(scope, row, p.t.ShownCells(row), p.t.Query().Filter.String()), true
}
