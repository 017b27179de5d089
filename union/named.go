package union

import (
	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// NamedObject names one object of a Named: its resource, namespace ("" for a cluster-scoped one) and name.
type NamedObject struct {
	Res             discovery.Resource
	Namespace, Name string
}

// Named is the rows of a Kinds that name one of a set of objects (a Helm release's: the objects its manifest
// names), live: the Kinds lists and watches their kinds, Snapshot keeps the rows of the set. Every other method
// is the Kinds' (KindOf: each row acts on its own kind). Safe for concurrent use, as Kinds is.
type Named struct {
	*Kinds
	keys map[string]bool // the union's row keys of the objects
}

// NewNamed keeps the rows of kinds (built, not started) that name one of objects.
func NewNamed(kinds *Kinds, objects []NamedObject) *Named {
	n := &Named{Kinds: kinds, keys: make(map[string]bool, len(objects))}
	for _, o := range objects {
		n.keys[namedKey(o)] = true
	}
	return n
}

// namedKey is the key a Kinds gives the row of o: its kind's label, then its own table's key.
func namedKey(o NamedObject) string {
	key := o.Name
	if o.Res.Namespaced && o.Namespace != "" {
		key = o.Namespace + "/" + o.Name
	}
	return KindLabel(o.Res) + "/" + key
}

// Snapshot is the Kinds' own, but only the rows of the set; Total counts them before q's filter.
func (n *Named) Snapshot(q watch.Query) watch.Snapshot {
	all := n.Kinds.Snapshot(q)
	out := watch.Snapshot{Rows: make([]*watch.Row, 0, len(n.keys))}
	for _, r := range all.Rows {
		if n.keys[r.Key] {
			out.Rows = append(out.Rows, r)
		}
	}
	for key := range n.keys {
		if _, ok := n.Kinds.Row(key); ok {
			out.Total++
		}
	}
	return out
}

// InNamespace is the same objects' rows over the Kinds in namespace ns (those of another namespace are none).
func (n *Named) InNamespace(ns string) (cluster.RowSource, error) {
	k, err := n.Kinds.InNamespace(ns)
	if err != nil {
		return nil, err
	}
	return &Named{Kinds: k.(*Kinds), keys: n.keys}, nil
}

var _ cluster.RowSource = (*Named)(nil)
