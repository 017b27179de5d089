package history

import (
	"bytes"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// FieldOwner is one entry of an object's metadata.managedFields, decoded: the manager, its operation
// (Apply or Update) and subresource, the time of its last write that changed the object, and the fields it
// owns. A plain value; the set is not modified after decoding.
type FieldOwner struct {
	// Manager, Operation and Subresource are the entry's (Operation: "Apply" or "Update"; Subresource ""
	// for the object itself).
	Manager, Operation, Subresource string
	// Time is the time of the manager's last write that changed the object (zero when the entry has none).
	Time time.Time
	// Fields are the fields the entry owns.
	Fields *fieldpath.Set
	raw    string // the FieldsV1 JSON as sent, to compare two versions' entries
}

// Name is the manager as the views show it: with its subresource when it wrote one ("kubelet/status").
func (o FieldOwner) Name() string {
	if o.Subresource != "" {
		return o.Manager + "/" + o.Subresource
	}
	return o.Manager
}

// Same tells whether o and p are the same entry (manager, operation, subresource), whatever they own.
func (o FieldOwner) Same(p FieldOwner) bool {
	return o.Manager == p.Manager && o.Operation == p.Operation && o.Subresource == p.Subresource
}

// FieldOwners decodes obj's managedFields with structured-merge-diff (FieldsV1 → fieldpath.Set), in the
// server's order. An entry in another fields format is kept with an empty set.
func FieldOwners(obj *unstructured.Unstructured) ([]FieldOwner, error) {
	entries := obj.GetManagedFields()
	out := make([]FieldOwner, 0, len(entries))
	for _, e := range entries {
		o := FieldOwner{Manager: e.Manager, Operation: string(e.Operation), Subresource: e.Subresource,
			Fields: &fieldpath.Set{}}
		if e.Time != nil {
			o.Time = e.Time.Time
		}
		if e.FieldsV1 != nil && e.FieldsType == "FieldsV1" {
			o.raw = string(e.FieldsV1.Raw)
			if err := o.Fields.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
				return nil, fmt.Errorf("managedFields of %s (manager %s): %w", obj.GetName(), e.Manager, err)
			}
		}
		out = append(out, o)
	}
	return out, nil
}

// OwnedBy returns the owners of the field at p: those whose set holds p, or holds an ancestor of p as a
// leaf (an atomic map or list, owned whole).
func OwnedBy(owners []FieldOwner, p fieldpath.Path) []FieldOwner {
	var out []FieldOwner
	for _, o := range owners {
		if ownsPath(o.Fields, p) {
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

// OwnsBelow tells whether set holds any path below p.
func OwnsBelow(set *fieldpath.Set, p fieldpath.Path) bool {
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

// UnionFields returns the union of the owners' sets: every field some manager owns.
func UnionFields(owners []FieldOwner) *fieldpath.Set {
	u := &fieldpath.Set{}
	for _, o := range owners {
		u = u.Union(o.Fields)
	}
	return u
}
