package history

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"kscope/watch"
)

// Entry is one version of an object in the history view: a full version (from a YAML view's watch, in a
// Book) or a row version (the cells of an open table, from its source's versions), with the one before it of
// the same kind (nil for the first version seen). A plain value.
type Entry struct {
	// Seen is when the version arrived; zero for the row as the table listed it, before recording began.
	Seen time.Time
	// RV is the version's resourceVersion.
	RV string

	// Obj and PrevObj are a full version and the full version before it; Row and PrevRow a row version
	// and the row version before it, Columns the table's columns. One of Obj and Row is set.
	Obj, PrevObj *Version
	Row, PrevRow *watch.Row
	Columns      []watch.Column
	// Feed is a change the live feed of changes saw (WithFeed): set alone, or beside a row version of the same
	// resourceVersion.
	Feed *FeedChange
}

// Entries merges the versions kept of one object, oldest first: its full versions (objs, from a Book,
// oldest first) and, for the versions of which there is no full one (same resourceVersion), its row
// versions (rows, oldest first, from a table of columns cols).
func Entries(objs []Version, rows []watch.RowVersion, cols []watch.Column) []Entry {
	full := map[string]bool{}
	var out []Entry
	for i := range objs {
		e := Entry{Seen: objs[i].Seen, RV: objs[i].Obj.GetResourceVersion(), Obj: &objs[i]}
		if i > 0 {
			e.PrevObj = &objs[i-1]
		}
		full[e.RV] = true
		out = append(out, e)
	}
	for i, v := range rows {
		if v.Row.ResourceVersion != "" && full[v.Row.ResourceVersion] {
			continue
		}
		e := Entry{Seen: v.Seen, RV: v.Row.ResourceVersion, Row: v.Row, Columns: cols}
		if i > 0 {
			e.PrevRow = rows[i-1].Row
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Seen.Before(out[j].Seen) })
	return out
}

// Writer returns the manager, operation and subresource that made e (ok false for a row version, which
// carries no managedFields), and whether the attribution is sure (see LastWriter).
func (e Entry) Writer() (w FieldOwner, sure, ok bool) {
	if e.Feed != nil && e.Feed.Manager != "" {
		return FieldOwner{Manager: e.Feed.Manager, Operation: e.Feed.Operation}, e.Feed.Sure, true
	}
	if e.Obj == nil {
		return FieldOwner{}, false, false
	}
	cur, err := FieldOwners(e.Obj.Obj)
	if err != nil {
		return FieldOwner{}, false, false
	}
	var prev []FieldOwner
	if e.PrevObj != nil {
		if prev, err = FieldOwners(e.PrevObj.Obj); err != nil {
			return FieldOwner{}, false, false
		}
	}
	return LastWriter(prev, cur, e.PrevObj == nil)
}

// Changes returns what changed from the version before e: the fields of a full version (ChangedPaths) or
// the cells of a row version ("STATUS Running→Error"); nil for the first version seen.
func (e Entry) Changes() []string {
	switch {
	case e.Obj != nil && e.PrevObj != nil:
		return ChangedPaths(e.PrevObj.Obj.Object, e.Obj.Obj.Object)
	case e.Row != nil && e.PrevRow != nil:
		var out []string
		for _, c := range cellChanges(e.PrevRow, e.Row, e.Columns) {
			out = append(out, fmt.Sprintf("%s %s→%s", c.column, c.old, c.new))
		}
		return out
	}
	return nil
}

// Summary is the one line the history view shows for e, at most width characters.
func (e Entry) Summary(width int) string {
	switch {
	case e.Feed != nil:
		return feedSummary(e, width)
	case e.Obj != nil && e.Obj.Deleted:
		return "deleted"
	case e.PrevObj == nil && e.PrevRow == nil && e.Row != nil && e.Seen.IsZero():
		return "as the table listed it (cells only)"
	case e.PrevObj == nil && e.PrevRow == nil:
		return "first version seen"
	}
	paths := e.Changes()
	if len(paths) == 0 {
		return "no field changed (metadata only)"
	}
	s := Summarize(paths, width)
	if e.Row != nil {
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
		old, cur := CellAt(a, i), CellAt(b, i)
		if old != cur {
			out = append(out, cellChange{column: name, old: old, new: cur})
		}
	}
	return out
}

// CellAt is the i-th cell of r, "" past its last.
func CellAt(r *watch.Row, i int) string {
	if i < len(r.Cells) {
		return r.Cells[i]
	}
	return ""
}
