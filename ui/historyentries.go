package ui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// historyEntry is one version of an object in the history view: a full version (from a YAML view's watch)
// or a row version (the cells of an open table), with the one before it of the same kind (nil for the first
// version seen).
type historyEntry struct {
	seen time.Time // zero: the row as the table listed it, before recording began
	rv   string

	obj, prevObj *objectVersion
	row, prevRow *watch.Row
	columns      []watch.Column // the table's, for a row version
}

// rowVersions returns the versions of the row with key that an open table of res keeps (the table with the
// most, should several list res), with that table's columns.
func (a *App) rowVersions(res discovery.Resource, key string) ([]watch.RowVersion, []watch.Column) {
	var best []watch.RowVersion
	var cols []watch.Column
	for _, v := range a.stack {
		t, ok := v.(*LiveTable)
		if !ok || t.res.GVR() != res.GVR() {
			continue
		}
		if src, ok := t.src.(cluster.Versioner); ok {
			if vs := src.Versions(key); len(vs) > len(best) {
				best, cols = vs, t.src.Columns()
			}
		}
	}
	return best, cols
}

// historyOf returns the versions kscope keeps of row, an object of res, oldest first: the full versions and,
// for the versions of which it has no full one (same resourceVersion), the row versions.
func (a *App) historyOf(res discovery.Resource, row *watch.Row) []historyEntry {
	objs := a.versions.versions(res.GVR(), row.Namespace, row.Name)
	rows, cols := a.rowVersions(res, row.Key)
	full := map[string]bool{}
	var out []historyEntry
	for i := range objs {
		e := historyEntry{seen: objs[i].seen, rv: objs[i].obj.GetResourceVersion(), obj: &objs[i]}
		if i > 0 {
			e.prevObj = &objs[i-1]
		}
		full[e.rv] = true
		out = append(out, e)
	}
	for i, v := range rows {
		if v.Row.ResourceVersion != "" && full[v.Row.ResourceVersion] {
			continue
		}
		e := historyEntry{seen: v.Seen, rv: v.Row.ResourceVersion, row: v.Row, columns: cols}
		if i > 0 {
			e.prevRow = rows[i-1].Row
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].seen.Before(out[j].seen) })
	return out
}

// writer returns the manager, operation and subresource that made e ("" for a row version, which carries
// no managedFields), and whether the attribution is sure (see lastWriter).
func (e historyEntry) writer() (fieldOwner, bool, bool) {
	if e.obj == nil {
		return fieldOwner{}, false, false
	}
	cur, err := fieldOwners(e.obj.obj)
	if err != nil {
		return fieldOwner{}, false, false
	}
	var prev []fieldOwner
	if e.prevObj != nil {
		if prev, err = fieldOwners(e.prevObj.obj); err != nil {
			return fieldOwner{}, false, false
		}
	}
	return lastWriter(prev, cur, e.prevObj == nil)
}

// changes returns what changed from the version before e: the fields of a full version (changedPaths) or
// the cells of a row version ("STATUS Running→Error"); nil for the first version seen.
func (e historyEntry) changes() []string {
	switch {
	case e.obj != nil && e.prevObj != nil:
		return changedPaths(e.prevObj.obj.Object, e.obj.obj.Object)
	case e.row != nil && e.prevRow != nil:
		var out []string
		for _, c := range cellChanges(e.prevRow, e.row, e.columns) {
			out = append(out, fmt.Sprintf("%s %s→%s", c.column, c.old, c.new))
		}
		return out
	}
	return nil
}

// summary is the one line the history view shows for e, at most width characters.
func (e historyEntry) summary(width int) string {
	switch {
	case e.obj != nil && e.obj.deleted:
		return "deleted"
	case e.prevObj == nil && e.prevRow == nil && e.row != nil && e.seen.IsZero():
		return "as the table listed it (cells only)"
	case e.prevObj == nil && e.prevRow == nil:
		return "first version seen"
	}
	paths := e.changes()
	if len(paths) == 0 {
		return "no field changed (metadata only)"
	}
	s := summarize(paths, width)
	if e.row != nil {
		s = "cells: " + s
	}
	return s
}

// cellChange is one cell that differs between two versions of a row.
type cellChange struct {
	column, old, new string
}

// cellChanges returns the cells that differ from a to b, named by cols (Age columns left out: the server
// prints them from its clock).
func cellChanges(a, b *watch.Row, cols []watch.Column) []cellChange {
	var out []cellChange
	for i := 0; i < max(len(a.Cells), len(b.Cells)); i++ {
		name := fmt.Sprintf("#%d", i+1)
		if i < len(cols) {
			if cols[i].Age {
				continue
			}
			name = strings.ToUpper(cols[i].Name)
		}
		old, cur := cellAt(a, i), cellAt(b, i)
		if old != cur {
			out = append(out, cellChange{column: name, old: old, new: cur})
		}
	}
	return out
}

func cellAt(r *watch.Row, i int) string {
	if i < len(r.Cells) {
		return r.Cells[i]
	}
	return ""
}
