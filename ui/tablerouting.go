package ui

import (
	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// In a table of several clusters each key that acts on the selected row acts through the App of the row's
// cluster: the table's host routes it to a host of that App over the same table (memberHost), which has
// that cluster's verbs, screens and access answers. The keys are the same in every cluster; the table shows
// those of the host that made it.

// clusterRows is a source whose rows are of several clusters (union.Clusters).
type clusterRows interface {
	ClusterOf(row *watch.Row) (cluster.Interface, string, bool)
}

// routed tells whether the table's keys are routed to the selected row's cluster (a table of several
// clusters, seen from the host that made it).
func (h *tableHost) routed() (clusterRows, bool) {
	if h.member {
		return nil, false
	}
	cr, ok := h.t.Source().(clusterRows)
	return cr, ok
}

// memberHost returns the host of the table's keys in cluster c (context name), made when first asked.
func (h *tableHost) memberHost(c cluster.Interface, name string) *tableHost {
	app := h.memberApp(c, name)
	if m, ok := h.members[app]; ok {
		return m
	}
	if h.members == nil {
		h.members = map[*App]*tableHost{}
	}
	m := &tableHost{App: app, t: h.t, access: app.newAccess(), member: true}
	h.members[app] = m
	return m
}

// rowHost returns the host of row's cluster, or nil when its cluster is not known.
func (h *tableHost) rowHost(cr clusterRows, row *watch.Row) *tableHost {
	c, name, ok := cr.ClusterOf(row)
	if !ok {
		return nil
	}
	return h.memberHost(c, name)
}

// routedBindings are the table's keys, each run by the selected row's cluster's host: the keys of this
// host's own cluster, as template (help, labels, and the keys that act with no row selected). The selected
// row's host's keys are built once for the list (selectedKeys), not once per key asked.
func (h *tableHost) routedBindings(cr clusterRows) []keymap.Binding {
	home := h.memberHost(h.App.cluster, h.App.cluster.Info().Context)
	template := home.Bindings()
	sel := &selectedKeys{h: h, cr: cr, host: home, keys: template}
	out := make([]keymap.Binding, len(template))
	for i, b := range template {
		run := func() {
			m, keys := sel.get()
			if m == nil {
				b.Run()
				return
			}
			if mb, ok := sameBinding(keys, b); ok {
				mb.Run()
				return
			}
			h.Errorf("%s: not available in context %s", b.Label, m.context)
		}
		denied := func() bool {
			m, keys := sel.get()
			if m == nil {
				return b.Denied()
			}
			mb, ok := sameBinding(keys, b)
			return ok && mb.Denied()
		}
		out[i] = b.Does(b.Name, b.Description, run).WithDenied(denied)
	}
	return out
}

// selectedKeys are the keys of the selected row's cluster's host for one list of routed keys: built when
// first asked, and again only when the selection moves to another cluster's row. UI goroutine.
type selectedKeys struct {
	h  *tableHost
	cr clusterRows
	// host and keys are the last host asked and its keys (at first the template's).
	host *tableHost
	keys []keymap.Binding
}

// get returns the host of the selected row's cluster and its keys; nil when no row (of a known cluster) is
// selected.
func (s *selectedKeys) get() (*tableHost, []keymap.Binding) {
	m := s.h.selectedRowHost(s.cr)
	if m == nil {
		return nil, nil
	}
	if m != s.host {
		s.host, s.keys = m, m.Bindings()
	}
	return m, s.keys
}

// selectedRowHost returns the host of the selected row's cluster, or nil when no row (of a known cluster) is
// selected.
func (h *tableHost) selectedRowHost(cr clusterRows) *tableHost {
	row, ghost := h.t.Selected()
	if row == nil || ghost {
		return nil
	}
	return h.rowHost(cr, row)
}

// sameBinding finds in bs the binding of b's key and name.
func sameBinding(bs []keymap.Binding, b keymap.Binding) (keymap.Binding, bool) {
	for _, o := range bs {
		if o.Name == b.Name && o.Key == b.Key && o.Rune == b.Rune && o.Active() {
			return o, true
		}
	}
	return keymap.Binding{}, false
}

// openRouted is Open (enter) on a row of a table of several clusters: its cluster's host opens it.
func (h *tableHost) openRouted(cr clusterRows, res discovery.Resource, row *watch.Row) bool {
	m := h.selectedRowHost(cr)
	if m == nil {
		return false
	}
	m.Open(res, row)
	return true
}
