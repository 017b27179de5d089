package kubeproto

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The field numbers of meta/v1 and runtime messages, from k8s.io/apimachinery's generated.proto.
const (
	typeMetaKindField          = 2 // runtime.TypeMeta.kind
	listMetaResourceVersion    = 2 // ListMeta.resourceVersion
	listMetaContinue           = 3 // ListMeta.continue
	listMetaRemainingItemCount = 4 // ListMeta.remainingItemCount
	mapKeyField                = 1 // a map entry's key
	mapValueField              = 2 // a map entry's value
)

// Field is one field of a protobuf message: Bytes holds a length-delimited field's value or a varint
// field's encoding (read by Varint), both aliasing the message; a field of another wire type has neither.
// It is four words, so that Next returns in registers: the decoders call Next for every field they meet.
type Field struct {
	Num   protowire.Number
	Type  protowire.Type
	Bytes []byte
}

// Varint returns the value of a varint field (0 for a field of another wire type).
func (f Field) Varint() uint64 {
	if f.Type != protowire.VarintType {
		return 0
	}
	v, _ := protowire.ConsumeVarint(f.Bytes)
	return v
}

// Next reads the first field of the message b and returns it with the rest of b. Fields of other wire types
// than length-delimited and varint (groups included) are skipped over whole. Next does not allocate.
func Next(b []byte) (Field, []byte, error) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return Field{}, nil, fmt.Errorf("tag: %w", protowire.ParseError(n))
	}
	b = b[n:]
	f := Field{Num: num, Type: typ}
	switch typ {
	case protowire.BytesType:
		f.Bytes, n = protowire.ConsumeBytes(b)
	case protowire.VarintType:
		if _, n = protowire.ConsumeVarint(b); n >= 0 {
			f.Bytes = b[:n]
		}
	default:
		n = protowire.ConsumeFieldValue(num, typ, b)
	}
	if n < 0 {
		return Field{}, nil, fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
	}
	return f, b[n:], nil
}

// Each calls each with every field of the message b, in order, and stops at the first error.
func Each(b []byte, each func(Field) error) error {
	for len(b) > 0 {
		f, rest, err := Next(b)
		if err != nil {
			return err
		}
		if err := each(f); err != nil {
			return err
		}
		b = rest
	}
	return nil
}

// WantBytes checks that the field named what is length-delimited, as the generated code requires of a
// string, bytes or message field.
func WantBytes(what string, typ protowire.Type) error {
	if typ != protowire.BytesType {
		return fmt.Errorf("%s: wire type %d, want %d", what, typ, protowire.BytesType)
	}
	return nil
}

// TypeMetaKind returns the kind of the runtime.TypeMeta b, "" when it has none or does not parse.
func TypeMetaKind(b []byte) string {
	kind := ""
	err := Each(b, func(f Field) error {
		if f.Num == typeMetaKindField && f.Type == protowire.BytesType {
			kind = string(f.Bytes)
		}
		return nil
	})
	if err != nil {
		return ""
	}
	return kind
}

// ReadListMeta reads the ListMeta b into m, as its generated Unmarshal merges it: resourceVersion, continue
// and remainingItemCount, the last value of each winning; the other fields are skipped.
func ReadListMeta(b []byte, m *metav1.ListMeta) error {
	return Each(b, func(f Field) error {
		switch {
		case f.Num == listMetaResourceVersion && f.Type == protowire.BytesType:
			m.ResourceVersion = string(f.Bytes)
		case f.Num == listMetaContinue && f.Type == protowire.BytesType:
			m.Continue = string(f.Bytes)
		case f.Num == listMetaRemainingItemCount && f.Type == protowire.VarintType:
			n := int64(f.Varint())
			m.RemainingItemCount = &n
		}
		return nil
	})
}

// MapEntry reads the key and the value of one entry of a protobuf map (each the last of its field, nil when
// missing; both aliasing b), which must be length-delimited: map<string, string> or map<string, message>.
func MapEntry(b []byte) (key, value []byte, err error) {
	err = Each(b, func(f Field) error {
		if f.Num != mapKeyField && f.Num != mapValueField {
			return nil
		}
		if err := WantBytes("map entry", f.Type); err != nil {
			return err
		}
		if f.Num == mapKeyField {
			key = f.Bytes
		} else {
			value = f.Bytes
		}
		return nil
	})
	return key, value, err
}
