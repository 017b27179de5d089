package ui

import (
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/ui/plugins"
)

// pluginHost is the app as the plugins' host (plugins.Host): the app's services (Navigator's), its
// notices, the terminal it suspends, its children's environment and what read-only mode refused them. UI
// goroutine, but for what plugins.Host says any goroutine may call.
type pluginHost struct{ *App }

// FlushNotices implements plugins.Host.
func (h pluginHost) FlushNotices() { h.flushNotices() }

// ReadOnly implements plugins.Host.
func (h pluginHost) ReadOnly() bool { return h.opts.ReadOnly }

// Kubeconfig implements plugins.Host: the kubeconfig of the children acting on this App's cluster (a
// member's own read-only proxy's), else Options.Kubeconfig.
func (h pluginHost) Kubeconfig() string { return h.childKubeconfig() }

// Suspend implements plugins.Host.
func (h pluginHost) Suspend(fn func()) bool { return h.suspend(fn) }

// ChildEnv implements plugins.Host.
func (h pluginHost) ChildEnv(vars map[string]string) []string { return h.childEnv(vars) }

// RefusalMark implements plugins.Host.
func (h pluginHost) RefusalMark() int { return h.refusalMark() }

// RefusedSince implements plugins.Host.
func (h pluginHost) RefusedSince(mark int) string { return h.refusedSince(mark) }

// pluginBindings are the configured plugins that apply to v (a live table, or a screen that is a
// plugins.Subject), as keys acting on its selection: those with override: true, then the others. They act
// through the App of v's cluster: a screen a member's App pushed runs them on that member's cluster, and a
// table of several clusters runs them on the selected (or each marked) row's own cluster (routedPlugins).
func (a *App) pluginBindings(v Screen) (override, normal []keymap.Binding) {
	owner := a.home
	if m, ok := a.screenOf[v]; ok {
		owner = m
	}
	sub, ok := v.(plugins.Subject)
	if t, table := v.(*livetable.Table); table {
		if cr, several := t.Source().(clusterRows); several {
			return a.routedPlugins(t, cr)
		}
		sub, ok = plugins.Table{Table: t}, true
	}
	if !ok {
		return nil, nil
	}
	return owner.plugins.Bindings(sub)
}

// The app is the plugins' host.
var _ plugins.Host = pluginHost{}
