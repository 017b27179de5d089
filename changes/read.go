package changes

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/history"
)

// Stats is how much the model holds. A plain value.
type Stats struct {
	// Kept is the number of changes kept, Capacity the most it keeps; Total the changes seen since it began.
	Kept, Capacity int
	Total          uint64
	// Objects is the number of objects whose state is kept.
	Objects int
}

// Stats returns how much the model holds now.
func (m *Model) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := Stats{Kept: m.n, Capacity: len(m.ring), Total: m.total}
	for _, objs := range m.objects {
		st.Objects += len(objs)
	}
	return st
}

// Changes returns the changes kept, newest first.
func (m *Model) Changes() []Change {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Change, 0, m.n)
	for i := 1; i <= m.n; i++ {
		out = append(out, m.changeAt(i))
	}
	return out
}

// changeAt is the i-th newest change kept (1: the newest). Callers hold m.mu.
func (m *Model) changeAt(i int) Change {
	r := m.ring[(m.next-i+len(m.ring))%len(m.ring)]
	return Change{Seen: time.Unix(0, r.seen), Kind: m.kinds[r.kind], Namespace: r.namespace, Name: r.name, Op: r.op,
		Manager: r.manager, Operation: r.operation, Sure: r.sure, Fields: r.fields, RV: r.rv}
}

// Of returns the changes kept of the object of gvr named namespace/name, oldest first.
func (m *Model) Of(gvr schema.GroupVersionResource, namespace, name string) []Change {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Change
	for i := m.n; i >= 1; i-- {
		r := m.ring[(m.next-i+len(m.ring))%len(m.ring)]
		if r.name == name && r.namespace == namespace && m.kinds[r.kind].GVR == gvr {
			out = append(out, m.changeAt(i))
		}
	}
	return out
}

// Feed returns changes (one object's, oldest first) as the history view's feed entries.
func Feed(changes []Change) []history.FeedChange {
	out := make([]history.FeedChange, 0, len(changes))
	for _, c := range changes {
		out = append(out, history.FeedChange{Seen: c.Seen, RV: c.RV, Op: c.Op.String(), Manager: c.Manager, Operation: c.Operation,
			Sure: c.Sure, Fields: c.Fields})
	}
	return out
}
