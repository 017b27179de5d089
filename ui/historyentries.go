package ui

import (
	"kscope/cluster"
	"kscope/discovery"
	"kscope/history"
	"kscope/ui/livetable"
	"kscope/watch"
)

// rowVersions returns the versions of the row with key that an open table of res in a's cluster keeps (the
// table with the most, should several list res), with that table's columns.
func (a *App) rowVersions(res discovery.Resource, key string) ([]watch.RowVersion, []watch.Column) {
	var best []watch.RowVersion
	var cols []watch.Column
	for _, v := range a.stack {
		t, ok := v.(*livetable.Table)
		owner, member := a.screenOf[v] // a table a member's App pushed is of its cluster
		if !ok || t.Resource().GVR() != res.GVR() || member && owner.cluster != a.cluster || !member && a.home.cluster != a.cluster {
			continue
		}
		if src, ok := t.Source().(cluster.Versioner); ok {
			if vs := src.Versions(key); len(vs) > len(best) {
				best, cols = vs, t.Source().Columns()
			}
		}
	}
	return best, cols
}

// historyOf returns the versions kscope keeps of row, an object of res, oldest first: the full versions the
// app's book keeps and, for the versions of which it has no full one (same resourceVersion), the row
// versions of an open table (history.Entries).
func (a *App) historyOf(res discovery.Resource, row *watch.Row) []history.Entry {
	objs := a.versions.Versions(res.GVR(), row.Namespace, row.Name)
	rows, cols := a.rowVersions(res, row.Key)
	return history.Entries(objs, rows, cols)
}
