package watch

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// pruner zeroes, in an object of a Go type of k8s.io/api, the fields a Fields does not keep, so that turning
// what is left into the object's JSON content (runtime.DefaultUnstructuredConverter) costs what the kept fields
// cost, not what the object holds (its managedFields, annotations, spec and status). Fields are named as JSON
// names them (a field's json tag, inline structs flattened into their parent); a list applies the node to each
// element, as Fields does. It stops, keeping the value as it is, at a node kept whole, at a wildcard, at a map
// and at a value with its own JSON encoding (metav1.Time, resource.Quantity, intstr.IntOrString…): what is
// left over is cut by Fields.Keep afterwards. A pruner caches each struct type's JSON names; it is safe for
// concurrent use.
type pruner struct {
	mu    sync.Mutex
	types map[reflect.Type]structInfo
}

// structInfo is what a pruner knows of a struct type: whether it encodes itself, else its fields.
type structInfo struct {
	encodes bool
	fields  []jsonField
}

// jsonField is one exported field of a struct as encoding/json sees it: its name, or inline for an embedded
// struct whose fields are its parent's.
type jsonField struct {
	index  int
	name   string
	inline bool
}

// The interfaces of a value that encodes itself.
var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

func newPruner() *pruner { return &pruner{types: map[reflect.Type]structInfo{}} }

// prune zeroes the fields of obj (a pointer to a struct) that f does not keep.
func (p *pruner) prune(obj any, f *Fields) {
	p.value(reflect.ValueOf(obj), f)
}

func (p *pruner) value(v reflect.Value, f *Fields) {
	if f.leaf() || f.any != nil {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			p.value(v.Elem(), f)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			p.value(v.Index(i), f)
		}
	case reflect.Struct:
		info := p.info(v.Type())
		if info.encodes {
			return
		}
		for _, jf := range info.fields {
			fv := v.Field(jf.index)
			switch c := f.children[jf.name]; {
			case jf.inline:
				p.value(fv, f)
			case c == nil:
				fv.SetZero()
			default:
				p.value(fv, c)
			}
		}
	}
}

// encodesItself tells whether a value of t (or of a pointer to it) has its own JSON or text encoding.
func encodesItself(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || pt.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		pt.Implements(textMarshaler)
}

// info returns what p knows of struct type t: whether it encodes itself, else its settable, encoded fields
// as encoding/json names them.
func (p *pruner) info(t reflect.Type) structInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	if info, ok := p.types[t]; ok {
		return info
	}
	if encodesItself(t) {
		p.types[t] = structInfo{encodes: true}
		return p.types[t]
	}
	var fs []jsonField
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		inline := name == "" && (sf.Anonymous || strings.Contains(tag, ",inline"))
		if name == "" {
			name = sf.Name
		}
		fs = append(fs, jsonField{index: i, name: name, inline: inline})
	}
	p.types[t] = structInfo{fields: fs}
	return p.types[t]
}
