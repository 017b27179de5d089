package changes

import (
	"hash/fnv"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"kscope/tree"
)

// Capacity is how many changes a Model keeps by default: the latest, the oldest dropped first.
const Capacity = 2000

// internLimit bounds the strings a Model shares (namespaces, managers, field lists): past it, new ones are
// kept unshared, so that a cluster of ever new names cannot grow the table without bound.
const internLimit = 10000

// Op is what happened to an object.
type Op uint8

// The ops of a change.
const (
	Created Op = iota + 1
	Updated
	Deleted
)

// String is the op as the feed shows it: "created", "updated", "deleted".
func (o Op) String() string {
	switch o {
	case Created:
		return "created"
	case Updated:
		return "updated"
	case Deleted:
		return "deleted"
	}
	return "?"
}

// Change is one change the feed saw. A plain value.
type Change struct {
	// Seen is when the feed received it (a watch event carries no time of its own).
	Seen time.Time
	// Kind is the object's kind; Namespace ("" for a cluster-scoped object) and Name name it.
	Kind            tree.Kind
	Namespace, Name string
	Op              Op
	// Manager is the field manager that made the change, with its subresource ("kubelet/status"); "" when
	// unknown (a deletion, an object without managedFields). Sure is false when another entry is as new.
	Manager string
	Sure    bool
	// Operation is the manager's entry's operation: "Apply" or "Update".
	Operation string
	// Fields are the top-level fields of the manager's managedFields entry, joined by ", ".
	Fields string
	// RV is the object's resourceVersion after the change ("" for a deletion found by a relist).
	RV string
}

// Key is the object as the tables key it: "namespace/name", or "name" when cluster-scoped.
func (c Change) Key() string {
	if c.Namespace == "" {
		return c.Name
	}
	return c.Namespace + "/" + c.Name
}

// record is a kept change; the strings are shared with the model's interned ones.
type record struct {
	seen                        int64
	kind                        int32
	op                          Op
	sure                        bool
	namespace, name, rv, fields string
	manager, operation          string
}

// object is what the model keeps of one object watched: its resourceVersion's hash and its entries.
type object struct {
	rv      uint64
	entries []entry
}

// Model is the feed: the latest changes in a ring and the state per object needed to tell the next one's
// writer (see the package doc). Watches write into slots (one per kind and namespace watched, NewModel's
// kinds): List, Added, Updated, Deleted. Safe for concurrent use.
type Model struct {
	mu      sync.Mutex
	kinds   []tree.Kind // by slot
	objects []map[string]object
	listed  []bool
	ring    []record
	next    int    // where the next change goes
	n       int    // changes kept
	total   uint64 // changes seen
	in      interner
}

// NewModel returns an empty model keeping the latest capacity changes (<= 0: Capacity) of watches of
// kinds, one slot each (a kind may have several slots: one per namespace).
func NewModel(kinds []tree.Kind, capacity int) *Model {
	if capacity <= 0 {
		capacity = Capacity
	}
	m := &Model{kinds: kinds, objects: make([]map[string]object, len(kinds)), listed: make([]bool, len(kinds)),
		ring: make([]record, capacity), in: newInterner()}
	for i := range m.objects {
		m.objects[i] = map[string]object{}
	}
	return m
}

// keyOf is obj's key in its slot.
func keyOf(obj *metav1.PartialObjectMetadata) string {
	if obj.Namespace == "" {
		return obj.Name
	}
	return obj.Namespace + "/" + obj.Name
}

// rvHash is the hash kept of a resourceVersion.
func rvHash(rv string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(rv))
	return h.Sum64()
}

// List takes a whole list of slot: the first one only fills the state (it is not a change); a later one (a
// relist) reports what differs from the state as created, updated or deleted, seen at now.
func (m *Model) List(slot int, items []*metav1.PartialObjectMetadata, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	objs := m.objects[slot]
	if !m.listed[slot] {
		m.listed[slot] = true
		for _, o := range items {
			objs[keyOf(o)] = object{rv: rvHash(o.ResourceVersion), entries: entriesOf(o.ManagedFields, &m.in)}
		}
		return
	}
	keep := make(map[string]struct{}, len(items))
	for _, o := range items {
		keep[keyOf(o)] = struct{}{}
		m.changed(slot, o, now)
	}
	for key := range objs {
		if _, ok := keep[key]; !ok {
			ns, name := splitKey(key, m.kinds[slot].Namespaced)
			delete(objs, key)
			m.push(record{seen: now.UnixNano(), kind: int32(slot), op: Deleted, namespace: m.in.str(ns), name: name})
		}
	}
}

// Added takes an object a watch of slot reported added, at now.
func (m *Model) Added(slot int, obj *metav1.PartialObjectMetadata, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.changed(slot, obj, now)
}

// Updated takes an object a watch of slot reported changed, at now.
func (m *Model) Updated(slot int, obj *metav1.PartialObjectMetadata, now time.Time) {
	m.Added(slot, obj, now)
}

// Deleted takes an object a watch of slot reported deleted (its last state), at now.
func (m *Model) Deleted(slot int, obj *metav1.PartialObjectMetadata, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.objects[slot], keyOf(obj))
	m.push(record{seen: now.UnixNano(), kind: int32(slot), op: Deleted, namespace: m.in.str(obj.Namespace),
		name: obj.Name, rv: obj.ResourceVersion})
}

// changed records obj, added or updated in slot, as a change unless its resourceVersion is the one kept.
// Callers hold m.mu.
func (m *Model) changed(slot int, obj *metav1.PartialObjectMetadata, now time.Time) {
	key := keyOf(obj)
	prev, known := m.objects[slot][key]
	rv := rvHash(obj.ResourceVersion)
	if known && prev.rv == rv {
		return
	}
	cur := entriesOf(obj.ManagedFields, &m.in)
	m.objects[slot][key] = object{rv: rv, entries: cur}
	r := record{seen: now.UnixNano(), kind: int32(slot), op: Updated, namespace: m.in.str(obj.Namespace),
		name: obj.Name, rv: obj.ResourceVersion}
	if !known {
		r.op = Created
	}
	if i, sure := writer(prev.entries, cur, !known); i >= 0 {
		r.manager, r.operation, r.sure = cur[i].who.name, cur[i].who.operation, sure
		if f := obj.ManagedFields[i].FieldsV1; f != nil {
			r.fields = m.in.str(topFields(f.Raw))
		}
	}
	m.push(r)
}

// push keeps r as the newest change. Callers hold m.mu.
func (m *Model) push(r record) {
	m.ring[m.next] = r
	m.next = (m.next + 1) % len(m.ring)
	m.n = min(m.n+1, len(m.ring))
	m.total++
}

// splitKey returns the namespace and name of a slot's key.
func splitKey(key string, namespaced bool) (string, string) {
	if namespaced {
		for i := range len(key) {
			if key[i] == '/' {
				return key[:i], key[i+1:]
			}
		}
	}
	return "", key
}
