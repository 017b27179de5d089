package watch

import (
	"sync/atomic"

	"k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// rowObject is what the informer stores for one object: its Row (which already holds the metadata the
// informer needs: namespace, name, UID, resourceVersion, creationTimestamp, labels) and, on a watch BOOKMARK
// only, the annotations the reflector reads (k8s.io/initial-events-end).
//
// It implements runtime.Object and metav1.Object so that the reflector, the DeltaFIFO and the indexer can key
// it and read its resourceVersion. Metadata a row does not need (generation, finalizers, owner references,
// managed fields …) is not kept: its getters return the zero value and its setters drop the value. Setters of
// kept fields replace the Row with a modified copy, so a published Row never changes.
//
// The object the informer's indexer holds for a key is also the row store's holder of that key: its Row is
// the one row kscope keeps per object. The store swaps it for a more complete one (the metadata fill, a relist
// that found the cells unchanged), so row is an atomic pointer: informer goroutines read it while the store
// writes it.
type rowObject struct {
	row         atomic.Pointer[Row]
	annotations map[string]string
}

// newRowObject returns an object holding r (nil for none) and annotations.
func newRowObject(r *Row, annotations map[string]string) *rowObject {
	o := &rowObject{annotations: annotations}
	o.row.Store(r)
	return o
}

// get returns the row held, or nil.
func (o *rowObject) get() *Row { return o.row.Load() }

var _ v1.Object = (*rowObject)(nil)

func (o *rowObject) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }

// DeepCopyObject copies the wrapper; the Row is immutable and shared.
func (o *rowObject) DeepCopyObject() runtime.Object {
	var ann map[string]string
	if o.annotations != nil {
		ann = make(map[string]string, len(o.annotations))
		for k, v := range o.annotations {
			ann[k] = v
		}
	}
	return newRowObject(o.get(), ann)
}

// edit replaces the row with a copy changed by f.
func (o *rowObject) edit(f func(r *Row)) {
	r := Row{}
	if cur := o.get(); cur != nil {
		r = *cur
	}
	f(&r)
	r.Key = rowKey(r.Namespace, r.Name)
	o.row.Store(&r)
}

func (o *rowObject) r() *Row {
	if r := o.get(); r != nil {
		return r
	}
	return &Row{}
}

func (o *rowObject) GetNamespace() string                      { return o.r().Namespace }
func (o *rowObject) SetNamespace(ns string)                    { o.edit(func(r *Row) { r.Namespace = ns }) }
func (o *rowObject) GetName() string                           { return o.r().Name }
func (o *rowObject) SetName(name string)                       { o.edit(func(r *Row) { r.Name = name }) }
func (o *rowObject) GetGenerateName() string                   { return "" }
func (o *rowObject) SetGenerateName(string)                    {}
func (o *rowObject) GetUID() types.UID                         { return o.r().UID }
func (o *rowObject) SetUID(uid types.UID)                      { o.edit(func(r *Row) { r.UID = uid }) }
func (o *rowObject) GetResourceVersion() string                { return o.r().ResourceVersion }
func (o *rowObject) SetResourceVersion(rv string)              { o.edit(func(r *Row) { r.ResourceVersion = rv }) }
func (o *rowObject) GetGeneration() int64                      { return 0 }
func (o *rowObject) SetGeneration(int64)                       {}
func (o *rowObject) GetSelfLink() string                       { return "" }
func (o *rowObject) SetSelfLink(string)                        {}
func (o *rowObject) GetCreationTimestamp() v1.Time             { return v1.NewTime(o.r().Created) }
func (o *rowObject) SetCreationTimestamp(t v1.Time)            { o.edit(func(r *Row) { r.Created = t.Time }) }
func (o *rowObject) GetDeletionTimestamp() *v1.Time            { return nil }
func (o *rowObject) SetDeletionTimestamp(*v1.Time)             {}
func (o *rowObject) GetDeletionGracePeriodSeconds() *int64     { return nil }
func (o *rowObject) SetDeletionGracePeriodSeconds(*int64)      {}
func (o *rowObject) GetLabels() map[string]string              { return o.r().Labels }
func (o *rowObject) SetLabels(l map[string]string)             { o.edit(func(r *Row) { r.Labels = l }) }
func (o *rowObject) GetAnnotations() map[string]string         { return o.annotations }
func (o *rowObject) SetAnnotations(a map[string]string)        { o.annotations = a }
func (o *rowObject) GetFinalizers() []string                   { return nil }
func (o *rowObject) SetFinalizers([]string)                    {}
func (o *rowObject) GetOwnerReferences() []v1.OwnerReference   { return nil }
func (o *rowObject) SetOwnerReferences([]v1.OwnerReference)    {}
func (o *rowObject) GetManagedFields() []v1.ManagedFieldsEntry { return nil }
func (o *rowObject) SetManagedFields([]v1.ManagedFieldsEntry)  {}

// rowList is the list the ListWatch returns: the list's metadata and its rows.
type rowList struct {
	v1.TypeMeta
	v1.ListMeta
	Items []*rowObject
}

func (l *rowList) DeepCopyObject() runtime.Object {
	c := *l
	c.Items = make([]*rowObject, len(l.Items))
	for i, it := range l.Items {
		c.Items[i] = it.DeepCopyObject().(*rowObject)
	}
	return &c
}

// rowKey returns the informer key of an object: "namespace/name", or "name" when namespace is empty.
func rowKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}
