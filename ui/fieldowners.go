package ui

import (
	"bytes"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// fieldOwner is one entry of an object's metadata.managedFields, decoded: the manager, its operation
// (Apply or Update) and subresource, the time of its last write that changed the object, and the fields it
// owns. A plain value; the set is not modified after decoding.
type fieldOwner struct {
	manager, operation, subresource string
	time                            time.Time
	fields                          *fieldpath.Set
	raw                             string // the FieldsV1 JSON as sent, to compare two versions' entries
}

// name is the manager as the views show it: with its subresource when it wrote one ("kubelet/status").
func (o fieldOwner) name() string {
	if o.subresource != "" {
		return o.manager + "/" + o.subresource
	}
	return o.manager
}

// same tells whether o and p are the same entry (manager, operation, subresource), whatever they own.
func (o fieldOwner) same(p fieldOwner) bool {
	return o.manager == p.manager && o.operation == p.operation && o.subresource == p.subresource
}

// fieldOwners decodes obj's managedFields with structured-merge-diff (FieldsV1 → fieldpath.Set), in the
// server's order. An entry in another fields format is kept with an empty set.
func fieldOwners(obj *unstructured.Unstructured) ([]fieldOwner, error) {
	entries := obj.GetManagedFields()
	out := make([]fieldOwner, 0, len(entries))
	for _, e := range entries {
		o := fieldOwner{manager: e.Manager, operation: string(e.Operation), subresource: e.Subresource,
			fields: &fieldpath.Set{}}
		if e.Time != nil {
			o.time = e.Time.Time
		}
		if e.FieldsV1 != nil && e.FieldsType == "FieldsV1" {
			o.raw = string(e.FieldsV1.Raw)
			if err := o.fields.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
				return nil, fmt.Errorf("managedFields of %s (manager %s): %w", obj.GetName(), e.Manager, err)
			}
		}
		out = append(out, o)
	}
	return out, nil
}

// ownedBy returns the owners of the field at p: those whose set holds p, or holds an ancestor of p as a
// leaf (an atomic map or list, owned whole).
func ownedBy(owners []fieldOwner, p fieldpath.Path) []fieldOwner {
	var out []fieldOwner
	for _, o := range owners {
		if ownsPath(o.fields, p) {
			out = append(out, o)
		}
	}
	return out
}

// ownsPath tells whether set holds p, or a prefix of p with nothing below it in set.
func ownsPath(set *fieldpath.Set, p fieldpath.Path) bool {
	node := set
	for i, pe := range p {
		if node.Members.Has(pe) {
			if i == len(p)-1 {
				return true
			}
			if _, below := node.Children.Get(pe); !below {
				return true // an atomic value: everything under it belongs to the owner
			}
		}
		next, ok := node.Children.Get(pe)
		if !ok {
			return false
		}
		node = next
	}
	return false
}

// ownsBelow tells whether set holds any path below p.
func ownsBelow(set *fieldpath.Set, p fieldpath.Path) bool {
	node := set
	for _, pe := range p {
		next, ok := node.Children.Get(pe)
		if !ok {
			return false
		}
		node = next
	}
	return !node.Empty()
}

// unionFields returns the union of the owners' sets: every field some manager owns.
func unionFields(owners []fieldOwner) *fieldpath.Set {
	u := &fieldpath.Set{}
	for _, o := range owners {
		u = u.Union(o.fields)
	}
	return u
}
