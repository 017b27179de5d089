package kube

import (
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
)

// podResource is what the pod resources reader keeps of a pod: its key, its resourceVersion and the summed
// requests and limits of the containers that run together (podSums). About 80 bytes and two strings a pod;
// the namespace string is shared with the other pods of the namespace (namespaceTexts).
//
// It implements runtime.Object and metav1.Object so that the reflector and its store can key
// it and read its resourceVersion. Metadata it does not keep reads as the zero value, and setting it is a
// no-op. A watch BOOKMARK is a podResource with only its resourceVersion. The reader never changes a
// podResource it stores, so readers may share it.
type podResource struct {
	name, namespace, resourceVersion string
	sums                             cluster.PodResources
}

var (
	_ metav1.Object  = (*podResource)(nil)
	_ runtime.Object = (*podResource)(nil)
)

// GetObjectKind implements runtime.Object: a podResource carries no type information.
func (o *podResource) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }

// DeepCopyObject implements runtime.Object; the strings are immutable and shared.
func (o *podResource) DeepCopyObject() runtime.Object {
	c := *o
	return &c
}

// The metav1.Object methods: name, namespace and resourceVersion are kept, the rest is dropped.

func (o *podResource) GetNamespace() string                          { return o.namespace }
func (o *podResource) SetNamespace(ns string)                        { o.namespace = ns }
func (o *podResource) GetName() string                               { return o.name }
func (o *podResource) SetName(name string)                           { o.name = name }
func (o *podResource) GetGenerateName() string                       { return "" }
func (o *podResource) SetGenerateName(string)                        {}
func (o *podResource) GetUID() types.UID                             { return "" }
func (o *podResource) SetUID(types.UID)                              {}
func (o *podResource) GetResourceVersion() string                    { return o.resourceVersion }
func (o *podResource) SetResourceVersion(rv string)                  { o.resourceVersion = rv }
func (o *podResource) GetGeneration() int64                          { return 0 }
func (o *podResource) SetGeneration(int64)                           {}
func (o *podResource) GetSelfLink() string                           { return "" }
func (o *podResource) SetSelfLink(string)                            {}
func (o *podResource) GetCreationTimestamp() metav1.Time             { return metav1.Time{} }
func (o *podResource) SetCreationTimestamp(metav1.Time)              {}
func (o *podResource) GetDeletionTimestamp() *metav1.Time            { return nil }
func (o *podResource) SetDeletionTimestamp(*metav1.Time)             {}
func (o *podResource) GetDeletionGracePeriodSeconds() *int64         { return nil }
func (o *podResource) SetDeletionGracePeriodSeconds(*int64)          {}
func (o *podResource) GetLabels() map[string]string                  { return nil }
func (o *podResource) SetLabels(map[string]string)                   {}
func (o *podResource) GetAnnotations() map[string]string             { return nil }
func (o *podResource) SetAnnotations(map[string]string)              {}
func (o *podResource) GetFinalizers() []string                       { return nil }
func (o *podResource) SetFinalizers([]string)                        {}
func (o *podResource) GetOwnerReferences() []metav1.OwnerReference   { return nil }
func (o *podResource) SetOwnerReferences([]metav1.OwnerReference)    {}
func (o *podResource) GetManagedFields() []metav1.ManagedFieldsEntry { return nil }
func (o *podResource) SetManagedFields([]metav1.ManagedFieldsEntry)  {}

// podResourceList is one page of pods as the pod resources ListWatch returns it: the list's metadata (its
// resourceVersion and continue token, which the reflector and its pager read) and the pods in order. Its
// Items field is what meta.ExtractList and meta.SetList read and write by reflection.
type podResourceList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []*podResource
}

// DeepCopyObject implements runtime.Object.
func (l *podResourceList) DeepCopyObject() runtime.Object {
	c := *l
	l.ListMeta.DeepCopyInto(&c.ListMeta)
	c.Items = make([]*podResource, len(l.Items))
	for i, it := range l.Items {
		c.Items[i] = it.DeepCopyObject().(*podResource)
	}
	return &c
}

// maxSharedNamespaces bounds a namespaceTexts: namespaces beyond it are still decoded, each pod with its own
// copy of the string.
const maxSharedNamespaces = 4096

// namespaceTexts hands out one string per namespace name, so that the pods of a namespace share it. It is
// safe for concurrent use (a list and a watch of the same reflector may decode at the same time) and holds at
// most maxSharedNamespaces strings.
type namespaceTexts struct {
	mu sync.Mutex
	m  map[string]string
}

// share returns the string of b, the same string for the same bytes while the set has room.
func (t *namespaceTexts) share(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.m[string(b)]; ok { // (no allocation for the lookup)
		return s
	}
	s := string(b)
	if t.m == nil {
		t.m = make(map[string]string)
	}
	if len(t.m) < maxSharedNamespaces {
		t.m[s] = s
	}
	return s
}
