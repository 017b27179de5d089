package watch

import (
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
)

// protoObject is a Go type of k8s.io/api: it reads its own protobuf encoding.
type protoObject interface {
	runtime.Object
	Unmarshal(data []byte) error
}

// columnsCodec is the rowCodec of the columns of an ObjectSource over a built-in kind, computed from fields of
// the objects (JSONPath columns: kubectl's custom columns). Each object is decoded into its Go type (client-go's
// scheme) from protobuf, the fields the source does not keep are zeroed (pruner), what is left is turned into
// the object's JSON content as the server writes it (runtime.DefaultUnstructuredConverter), cut down as the
// dynamic informer's objects are (ObjectSource.cut), and its row computed from that (ObjectSource.row): the
// cells of the JSON path, read from an encoding that costs several times less to decode, and no object held
// past its row. Safe for concurrent use.
type columnsCodec struct {
	src   *ObjectSource
	gvk   schema.GroupVersionKind
	prune *pruner
	// typ is the struct type of gvk's Go type (a pointer to it reads protobuf): resolved once, so that each
	// object costs a reflect.New rather than a lookup in the scheme.
	typ reflect.Type
}

// newColumnsCodec returns the codec of src's objects, or nil when gvr is not a kind of client-go's scheme whose
// Go type reads protobuf (a custom resource, which the server serves in JSON only).
func newColumnsCodec(src *ObjectSource, gvr schema.GroupVersionResource) *columnsCodec {
	gvk, ok := schemeKind(gvr)
	if !ok {
		return nil
	}
	obj, err := scheme.Scheme.New(gvk)
	if err != nil {
		return nil
	}
	if _, ok := obj.(protoObject); !ok {
		return nil
	}
	typ := reflect.TypeOf(obj)
	if typ.Kind() != reflect.Pointer || typ.Elem().Kind() != reflect.Struct {
		return nil
	}
	return &columnsCodec{src: src, gvk: gvk, prune: newPruner(), typ: typ.Elem()}
}

// schemeKind returns the kind of client-go's scheme that resource gvr serves, by the plural its name gives
// (meta.UnsafeGuessKindToResource, exact for the built-in kinds). A wrong guess cannot yield wrong cells: the
// list and each watch event name their kind, and one that is not gvk's is an error (protoListWatch).
func schemeKind(gvr schema.GroupVersionResource) (schema.GroupVersionKind, bool) {
	for gvk := range scheme.Scheme.AllKnownTypes() {
		if gvk.GroupVersion() != gvr.GroupVersion() {
			continue
		}
		if plural, _ := meta.UnsafeGuessKindToResource(gvk); plural.Resource == gvr.Resource {
			return gvk, true
		}
	}
	return schema.GroupVersionKind{}, false
}

func (c *columnsCodec) Kind() string     { return c.gvk.Kind }
func (c *columnsCodec) ListKind() string { return c.gvk.Kind + "List" }

func (c *columnsCodec) protoRow(raw []byte) (*rowObject, error) {
	obj := reflect.New(c.typ).Interface().(protoObject) // (checked in newColumnsCodec)
	if err := obj.Unmarshal(raw); err != nil {
		return nil, fmt.Errorf("decode %s: %w", c.gvk.Kind, err)
	}
	c.prune.prune(obj, c.src.keep)
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, fmt.Errorf("convert %s: %w", c.gvk.Kind, err)
	}
	content["apiVersion"], content["kind"] = c.gvk.GroupVersion().String(), c.gvk.Kind
	return c.jsonRow(&unstructured.Unstructured{Object: content})
}

func (c *columnsCodec) jsonRow(u *unstructured.Unstructured) (*rowObject, error) {
	return jsonCodec{src: c.src}.jsonRow(u)
}
