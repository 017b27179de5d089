package ui

import (
	"strings"

	"kscope/columns"
	"kscope/discovery"
	"kscope/watch"
)

// openViewed opens spec's table as views.yaml lays it out for res, or as the server gives it when the file has
// no entry for it; it tells whether it pushed the table (false: it said why not).
func (a *App) openViewed(res discovery.Resource, spec watch.Spec, selectKey string) bool {
	view, ok := a.opts.Views.Lookup(res.GVR(), spec.Namespace)
	if !ok {
		return a.openSpec(res, spec, res.Name, selectKey)
	}
	if view.Computed() {
		cols, unknown, err := view.ObjectColumns()
		if err != nil {
			a.Errorf("views.yaml %s: %s", columns.ResourceKey(res.GVR()), err)
			return a.openSpec(res, spec, res.Name, selectKey)
		}
		spec.Columns = cols
		if len(unknown) > 0 {
			a.Message("views.yaml " + columns.ResourceKey(res.GVR()) + ": n/a for " + strings.Join(unknown, ", ") +
				": with JSONPath columns, only NAME, NAMESPACE, AGE and LABELS come from the objects")
		}
	}
	src, err := a.cluster.NewSource(spec)
	if err != nil {
		a.Errorf("open %s: %s", res.FullName(), err)
		return false
	}
	t := a.newTable(res, src, res.Name)
	t.SelectWhenShown(selectKey)
	t.SetLayout(view)
	a.Push(t)
	return true
}
