package health

import (
	"fmt"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/kubeproto"
)

// ProtoKind computes the health of the objects of one built-in kind from their protobuf encoding, as the API
// server sends them (application/vnd.kubernetes.protobuf), without decoding them whole: it reads only the
// fields kstatus reads of that kind (protokinds.go), builds from them the object as the server's JSON would
// show those fields (the same names, the same presence: omitempty, pointers, null times) and gives it to
// kstatus, so that the status is the one StatusOf computes from the JSON object. Everything else (the spec's
// pod template, managedFields, annotations, container images …) is skipped where it lies. ProtoKinds are
// package values, safe for concurrent use.
type ProtoKind struct {
	gvk      schema.GroupVersionKind
	resource string
	// created tells whether kstatus reads metadata.creationTimestamp (a pending pod's scheduling window).
	created bool
	// spec and status are the fields kstatus reads of the object's spec (field 2) and status (field 3); nil
	// when it reads none, and the object's JSON then carries none of them either.
	spec, status []field
}

// ProtoObject is what ProtoKind.Read keeps of an object: its identity, aliasing the bytes read (valid only
// as long as they are), and its health.
type ProtoObject struct {
	Name, Namespace, UID, ResourceVersion []byte
	Status                                Status
}

// ProtoKindFor returns the ProtoKind of the objects of gvr, nil when it has none (a custom resource, a
// built-in kind kstatus has no rules for, another version).
func ProtoKindFor(gvr schema.GroupVersionResource) *ProtoKind {
	for _, k := range protoKinds {
		if k.gvk.Group == gvr.Group && k.gvk.Version == gvr.Version && k.resource == gvr.Resource {
			return k
		}
	}
	return nil
}

// apiVersion returns the objects' apiVersion ("apps/v1").
func (k *ProtoKind) apiVersion() string {
	if k.gvk.Group == "" {
		return k.gvk.Version
	}
	return k.gvk.Group + "/" + k.gvk.Version
}

// Kind returns the kind of the objects ("Pod").
func (k *ProtoKind) Kind() string { return k.gvk.Kind }

// ListKind returns the kind of a list of them ("PodList").
func (k *ProtoKind) ListKind() string { return k.gvk.Kind + "List" }

// The field numbers of a built-in object and of its ObjectMeta and metav1.Time that Read reads, from
// k8s.io/api's and k8s.io/apimachinery's generated.proto (v0.37.2).
const (
	objectMetadataField   = 1 // X.metadata
	objectSpecField       = 2 // X.spec
	objectStatusField     = 3 // X.status
	metaGenerationField   = 7 // ObjectMeta.generation
	metaDeletionTimeField = 9 // ObjectMeta.deletionTimestamp
	timeSecondsField      = 1 // Time (Timestamp).seconds
	timeNanosField        = 2 // Time (Timestamp).nanos
	// zeroTimeUnix is the Unix time of the zero time.Time, which metav1.Time writes as null in JSON.
	zeroTimeUnix = -62135596800
	// errWireTypeFormat words a field of the wrong wire type.
	errWireTypeFormat = "%s: wire type %d, want %d"
)

// Read reads the protobuf message b of one object of k's kind (the object itself, without the envelope a
// body or a watch event carries) and computes its health. Where the generated Unmarshal of the kind accepts b,
// the status equals StatusOf of the object as the server's JSON shows it (see the tests); Read does not
// validate the fields it skips, so it accepts some bytes the generated code refuses. It errs on a field it
// reads that is not of its wire type. As StatusOf, it reads the clock for a pending pod (kstatus gives one 15 s to
// be scheduled before it calls it Failed).
func (k *ProtoKind) Read(b []byte) (ProtoObject, error) {
	var o ProtoObject
	meta := map[string]any{}
	obj := map[string]any{"apiVersion": k.apiVersion(), "kind": k.gvk.Kind, "metadata": meta}
	if k.created {
		meta["creationTimestamp"] = nil // a metav1.Time: null when zero, never omitted
	}
	if k.spec != nil {
		obj["spec"] = defaults(k.spec)
	}
	if k.status != nil {
		obj["status"] = defaults(k.status)
	}
	for len(b) > 0 {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return o, err
		}
		b = rest
		var fields []field
		switch f.Num {
		case objectMetadataField:
			if err := kubeproto.WantBytes("metadata", f.Type); err != nil {
				return o, err
			}
			if err := k.readMeta(f.Bytes, &o, meta); err != nil {
				return o, fmt.Errorf("metadata: %w", err)
			}
			continue
		case objectSpecField:
			fields = k.spec
		case objectStatusField:
			fields = k.status
		}
		if fields == nil {
			continue
		}
		name := "spec"
		if f.Num == objectStatusField {
			name = "status"
		}
		if err := kubeproto.WantBytes(name, f.Type); err != nil {
			return o, err
		}
		if err := readMessage(f.Bytes, fields, obj[name].(map[string]any)); err != nil {
			return o, fmt.Errorf("%s: %w", name, err)
		}
	}
	o.Status = StatusOf(&unstructured.Unstructured{Object: obj})
	return o, nil
}

// readMeta reads the ObjectMeta b: the identity into o, and into meta what kstatus reads (generation,
// deletionTimestamp, creationTimestamp where k needs it) as the JSON shows it.
func (k *ProtoKind) readMeta(b []byte, o *ProtoObject, meta map[string]any) error {
	for len(b) > 0 {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return err
		}
		b = rest
		var dst *[]byte
		switch f.Num {
		case kubeproto.ObjectMetaName:
			dst = &o.Name
		case kubeproto.ObjectMetaNamespace:
			dst = &o.Namespace
		case kubeproto.ObjectMetaUID:
			dst = &o.UID
		case kubeproto.ObjectMetaResourceVersion:
			dst = &o.ResourceVersion
		case metaGenerationField:
			err = setInt(meta, field{name: "generation", kind: intOmitEmpty, bits: 64}, f)
		case metaDeletionTimeField:
			err = setTime(meta, "deletionTimestamp", f)
		case kubeproto.ObjectMetaCreationTimestamp:
			if k.created {
				err = setTime(meta, "creationTimestamp", f)
			}
		}
		if err != nil {
			return err
		}
		if dst != nil {
			if err := kubeproto.WantBytes(fmt.Sprintf("field %d", f.Num), f.Type); err != nil {
				return err
			}
			*dst = f.Bytes
		}
	}
	return nil
}

// valueKind is how a field appears in the object's JSON, as the server encodes it (encoding/json over the
// Go types of k8s.io/api): its Go type and whether its tag says omitempty.
type valueKind uint8

const (
	strOmitEmpty   valueKind = iota // string, omitempty: there when not ""
	strAlways                       // string: always there
	intOmitEmpty                    // int32 or int64, omitempty: there when not 0
	intAlways                       // int32 or int64: always there
	intPointer                      // *int32 or *int64: there when set
	timePointer                     // *metav1.Time: there when set, null when zero
	message                         // a struct (omitempty or not, encoding/json never omits one): always there
	messagePointer                  // a *struct: there when set
	messageList                     // a []struct, omitempty: there when not empty
)

// field is one field of a message that kstatus reads: its protobuf number, its JSON name, how it appears in
// the JSON, and for a message its own fields. A plain value.
type field struct {
	num  protowire.Number
	name string
	kind valueKind
	bits int     // an int's width: 32 or 64
	sub  []field // a message's fields
}

// defaults returns a message of fields as the JSON shows it when the protobuf carries none of them: the
// fields that are always there, at their zero values.
func defaults(fields []field) map[string]any {
	m := make(map[string]any, len(fields))
	for _, f := range fields {
		switch f.kind {
		case strAlways:
			m[f.name] = ""
		case intAlways:
			m[f.name] = int64(0)
		case message:
			m[f.name] = defaults(f.sub)
		}
	}
	return m
}

// readMessage reads the fields of message b that fields name into m, as the generated Unmarshal merges
// them: the last value of a scalar wins, a message that appears twice is merged, repeated messages add up.
func readMessage(b []byte, fields []field, m map[string]any) error {
	for len(b) > 0 {
		wf, rest, err := kubeproto.Next(b)
		if err != nil {
			return err
		}
		b = rest
		f, ok := lookup(fields, wf.Num)
		if !ok {
			continue
		}
		switch f.kind {
		case strOmitEmpty, strAlways:
			if err := kubeproto.WantBytes(f.name, wf.Type); err != nil {
				return err
			}
			if f.kind == strOmitEmpty && len(wf.Bytes) == 0 {
				delete(m, f.name)
			} else {
				m[f.name] = string(wf.Bytes)
			}
		case intOmitEmpty, intAlways, intPointer:
			err = setInt(m, f, wf)
		case timePointer:
			err = setTime(m, f.name, wf)
		case message, messagePointer, messageList:
			err = readSub(m, f, wf)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// lookup returns the field of fields numbered num.
func lookup(fields []field, num protowire.Number) (field, bool) {
	for _, f := range fields {
		if f.num == num {
			return f, true
		}
	}
	return field{}, false
}

// readSub reads the message field wf (f) into m: into the message already there (merged), or a new one.
func readSub(m map[string]any, f field, wf kubeproto.Field) error {
	if err := kubeproto.WantBytes(f.name, wf.Type); err != nil {
		return err
	}
	var sub map[string]any
	if f.kind == messageList {
		sub = defaults(f.sub)
		list, _ := m[f.name].([]any)
		m[f.name] = append(list, sub)
	} else if sub, _ = m[f.name].(map[string]any); sub == nil {
		sub = defaults(f.sub)
		m[f.name] = sub
	}
	if err := readMessage(wf.Bytes, f.sub, sub); err != nil {
		return fmt.Errorf("%s: %w", f.name, err)
	}
	return nil
}

// setInt sets the int field wf (f) in m as the JSON shows it: an int64 (JSON integers decode as int64), the
// varint cut to f.bits as the generated code cuts it.
func setInt(m map[string]any, f field, wf kubeproto.Field) error {
	if wf.Type != protowire.VarintType {
		return fmt.Errorf(errWireTypeFormat, f.name, wf.Type, protowire.VarintType)
	}
	v := int64(wf.Varint())
	if f.bits == 32 {
		v = int64(int32(v))
	}
	if f.kind == intOmitEmpty && v == 0 {
		delete(m, f.name)
	} else {
		m[f.name] = v
	}
	return nil
}

// setTime sets the metav1.Time field wf in m as its MarshalJSON writes it: RFC 3339 in UTC, whole seconds
// (the protobuf's nanos are dropped, as its Unmarshal drops them), nil (null) for the zero time.
func setTime(m map[string]any, name string, wf kubeproto.Field) error {
	if err := kubeproto.WantBytes(name, wf.Type); err != nil {
		return err
	}
	var secs int64
	for b := wf.Bytes; len(b) > 0; {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		b = rest
		if f.Num != timeSecondsField && f.Num != timeNanosField {
			continue
		}
		if f.Type != protowire.VarintType {
			return fmt.Errorf(errWireTypeFormat, name, f.Type, protowire.VarintType)
		}
		if f.Num == timeSecondsField {
			secs = int64(f.Varint())
		}
	}
	if len(wf.Bytes) == 0 || secs == zeroTimeUnix {
		m[name] = nil
		return nil
	}
	m[name] = time.Unix(secs, 0).UTC().Format(time.RFC3339)
	return nil
}
