package livetable

import (
	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// A table of several kinds (`:deploy,sts,ds`, `:all`) is a Table over a source of several kinds (union.Kinds):
// each row's own resource comes from the source (rowKind), and the object keys act on it.

// kindedSource is a source whose rows are of several kinds (a kindsSource).
type kindedSource interface {
	KindOf(row *watch.Row) (discovery.Resource, *watch.Row, bool)
	InNamespace(ns string) (cluster.RowSource, error)
}

// rowKind returns the resource of row, a row of the table, and the row as that resource's own table keys it:
// the table's resource and row itself, unless the table shows several kinds.
func (t *Table) rowKind(row *watch.Row) (discovery.Resource, *watch.Row) {
	if k, ok := t.src.(kindedSource); ok && row != nil {
		if res, own, ok := k.KindOf(row); ok {
			return res, own
		}
	}
	return t.res, row
}

// kindsScope is scope for a table of several kinds: the selected row's resource and the namespace its verbs
// act in (none for a cluster-scoped kind); ok is false for other tables.
func (t *Table) kindsScope() (res discovery.Resource, ns string, ok bool) {
	if _, ok := t.src.(kindedSource); !ok {
		return discovery.Resource{}, "", false
	}
	r, _ := t.table.GetSelection()
	row, _ := t.content.RowAt(r)
	if row == nil {
		return t.res, t.src.Spec().Namespace, true
	}
	res, _ = t.rowKind(row)
	if !res.Namespaced {
		return res, "", true
	}
	return res, row.Namespace, true
}

// sourceIn returns a new source for spec, the table's spec in another namespace: of the same kinds for a
// table of several.
func (t *Table) sourceIn(spec watch.Spec) (cluster.RowSource, error) {
	if k, ok := t.src.(kindedSource); ok {
		return k.InNamespace(spec.Namespace)
	}
	return t.host.Cluster().NewSource(spec)
}

// objects names the table's objects for its placeholder: the resource ("pods"), or for a table of several
// kinds "objects of" its title ("objects of all").
func (t *Table) objects() string {
	if _, ok := t.src.(kindedSource); ok {
		return "objects of " + t.title
	}
	return t.res.Name
}
