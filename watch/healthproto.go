package watch

import (
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"kscope/health"
)

// healthCodec is the rowCodec of a HEALTH column over a built-in kind: each object's row is its key, uid,
// resourceVersion and its kstatus word as the only cell, read from the few fields kstatus reads of the kind
// (health.ProtoKind) without decoding the object whole. Safe for concurrent use.
type healthCodec struct {
	kind *health.ProtoKind
	rows *healthRows
}

func (c healthCodec) Kind() string     { return c.kind.Kind() }
func (c healthCodec) ListKind() string { return c.kind.ListKind() }

func (c healthCodec) protoRow(raw []byte) (*rowObject, error) {
	o, err := c.kind.Read(raw)
	if err != nil {
		return nil, err
	}
	return c.rows.row(o), nil
}

func (c healthCodec) jsonRow(u *unstructured.Unstructured) (*rowObject, error) {
	return c.rows.row(health.ProtoObject{Name: []byte(u.GetName()), Namespace: []byte(u.GetNamespace()),
		UID: []byte(u.GetUID()), ResourceVersion: []byte(u.GetResourceVersion()), Status: health.StatusOf(u)}), nil
}

// healthRows builds the rows of a health source, sharing what rows have in common: the namespaces' texts,
// and each status word's cells and search text (a row's cells are never modified). Safe for concurrent use
// (a list and a watch of the same reflector may decode at the same time).
type healthRows struct {
	mu    sync.Mutex
	texts textSet
	cells map[health.Status][]string
	text  map[health.Status]string
}

func newHealthRows() *healthRows {
	return &healthRows{texts: textSet{}, cells: map[health.Status][]string{}, text: map[health.Status]string{}}
}

// row returns the row object of o: key, namespace, name, uid, resourceVersion and the status word (no
// labels, no creation time: the column needs none, as an ObjectSource of whole-object columns keeps none).
func (h *healthRows) row(o health.ProtoObject) *rowObject {
	h.mu.Lock()
	ns := h.texts.shareBytes(o.Namespace)
	cells, ok := h.cells[o.Status]
	if !ok {
		cells = []string{string(o.Status)}
		h.cells[o.Status], h.text[o.Status] = cells, searchText(cells, -1)
	}
	text := h.text[o.Status]
	h.mu.Unlock()
	var key, name string
	if ns == "" {
		key = string(o.Name)
		name = key
	} else {
		key = ns + "/" + string(o.Name)
		name = key[len(ns)+1:] // (the key's bytes: one string for both)
	}
	return newRowObject(&Row{Key: key, Namespace: ns, Name: name, UID: types.UID(o.UID),
		ResourceVersion: string(o.ResourceVersion), Cells: cells, text: text}, nil)
}
