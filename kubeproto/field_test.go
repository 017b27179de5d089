package kubeproto

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// msg builds a protobuf message from its fields, each appended by one of the field helpers.
func msg(fields ...[]byte) []byte { return bytes.Join(fields, nil) }

func bytesField(num protowire.Number, v string) []byte {
	return protowire.AppendString(protowire.AppendTag(nil, num, protowire.BytesType), v)
}

func varintField(num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), v)
}

func group(num protowire.Number, fields ...[]byte) []byte {
	b := protowire.AppendTag(nil, num, protowire.StartGroupType)
	b = append(b, msg(fields...)...)
	return protowire.AppendTag(b, num, protowire.EndGroupType)
}

// TestEachField: every wire type in order, values where they have one; a group is one field; a message cut
// inside a field is an error.
func TestEachField(t *testing.T) {
	b := msg(varintField(1, 300), bytesField(2, "v"), protowire.AppendFixed32(protowire.AppendTag(nil, 3, protowire.Fixed32Type), 7),
		group(4, varintField(1, 1)), bytesField(5, ""))
	var got []Field
	if err := Each(b, func(f Field) error { got = append(got, f); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []Field{
		{Num: 1, Type: protowire.VarintType, Bytes: protowire.AppendVarint(nil, 300)},
		{Num: 2, Type: protowire.BytesType, Bytes: []byte("v")},
		{Num: 3, Type: protowire.Fixed32Type},
		{Num: 4, Type: protowire.StartGroupType},
		{Num: 5, Type: protowire.BytesType, Bytes: []byte{}},
	}
	if !reflect.DeepEqual(got, want) || got[0].Varint() != 300 || got[1].Varint() != 0 {
		t.Errorf("fields\n got %+v\nwant %+v", got, want)
	}
	for cut := 1; cut < len(b); cut++ {
		if err := Each(b[:cut], func(Field) error { return nil }); err == nil && !fieldBoundary(b, cut) {
			t.Errorf("cut at %d: no error", cut)
		}
	}
}

// fieldBoundary reports whether b[:cut] ends between two whole fields of b.
func fieldBoundary(b []byte, cut int) bool {
	for at := 0; at < cut; {
		_, rest, err := Next(b[at:])
		if err != nil {
			return false
		}
		at = len(b) - len(rest)
		if at == cut {
			return true
		}
	}
	return false
}

// TestReadListMeta: the last value of each field wins, as the generated Unmarshal merges them.
func TestReadListMeta(t *testing.T) {
	var m metav1.ListMeta
	b := msg(bytesField(2, "1"), bytesField(3, "c"), varintField(4, 9), bytesField(2, "2"), bytesField(1, "self"))
	if err := ReadListMeta(b, &m); err != nil {
		t.Fatal(err)
	}
	var want metav1.ListMeta
	if err := want.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	want.SelfLink = ""
	if !reflect.DeepEqual(m, want) || m.ResourceVersion != "2" {
		t.Errorf("got %+v, want %+v", m, want)
	}
}

// TestMapEntry: key and value, either missing, and a value that is not length-delimited.
func TestMapEntry(t *testing.T) {
	tests := []struct {
		name       string
		b          []byte
		key, value string
		err        string
	}{
		{"both", msg(bytesField(1, "app"), bytesField(2, "web")), "app", "web", ""},
		{"last wins", msg(bytesField(1, "a"), bytesField(2, "1"), bytesField(2, "2")), "a", "2", ""},
		{"no value", msg(bytesField(1, "a")), "a", "", ""},
		{"other fields", msg(varintField(3, 1), bytesField(1, "a"), bytesField(2, "b")), "a", "b", ""},
		{"varint value", msg(bytesField(1, "a"), varintField(2, 1)), "", "", "wire type"},
	}
	for _, tt := range tests {
		k, v, err := MapEntry(tt.b)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || string(k) != tt.key || string(v) != tt.value {
			t.Errorf("%s: %q %q %v, want %q %q", tt.name, k, v, err, tt.key, tt.value)
		}
	}
}

// TestTypeMetaKind: the kind field, none, and a TypeMeta that does not parse.
func TestTypeMetaKind(t *testing.T) {
	for _, tt := range []struct {
		b    []byte
		want string
	}{
		{msg(bytesField(1, "v1"), bytesField(2, "Pod")), "Pod"},
		{msg(bytesField(1, "v1")), ""},
		{msg(bytesField(2, "Pod"))[:4], ""},
	} {
		if got := TypeMetaKind(tt.b); got != tt.want {
			t.Errorf("TypeMetaKind(% x) = %q, want %q", tt.b, got, tt.want)
		}
	}
}

// TestUnwrap: a whole body's kind and object; a content encoding and a body without the magic are refused.
func TestUnwrap(t *testing.T) {
	typeMeta := msg(bytesField(1, "v1"), bytesField(2, "Pod"))
	body := append([]byte(Magic), msg(bytesField(1, string(typeMeta)), bytesField(2, "raw"), bytesField(3, ""))...)
	kind, raw, err := Unwrap(body)
	if err != nil || kind != "Pod" || string(raw) != "raw" {
		t.Errorf("Unwrap = %q %q %v", kind, raw, err)
	}
	gzipped := append([]byte(Magic), msg(bytesField(1, string(typeMeta)), bytesField(2, "raw"), bytesField(3, "gzip"))...)
	if _, _, err := Unwrap(gzipped); err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("a content encoding: %v", err)
	}
	if _, _, err := Unwrap([]byte(`{"kind":"Pod"}`)); err == nil || !strings.Contains(err.Error(), "JSON") {
		t.Errorf("JSON: %v", err)
	}
}

// TestReadListSkipsGroups: a group, which the generated code skips, is skipped wherever it is, nested groups
// included; a group ended by another field number, or one running past its list, is an error.
func TestReadListSkipsGroups(t *testing.T) {
	typeMeta := bytesField(1, string(msg(bytesField(1, "meta.k8s.io/v1"), bytesField(2, "PartialObjectMetadataList"))))
	item := string(msg(bytesField(1, string(msg(bytesField(1, "a"))))))
	body := func(list []byte, around ...[]byte) []byte {
		b := append([]byte(Magic), msg(around...)...)
		return append(b, msg(typeMeta, bytesField(2, string(list)))...)
	}
	good := msg(group(9, varintField(1, 1), group(10, bytesField(2, "x"))), bytesField(2, item), group(7))
	items, _, _, err := readAll(body(good, group(5, bytesField(1, "y"))), "PartialObjectMetadataList")
	if err != nil || len(items) != 1 || items[0].Name != "a" {
		t.Errorf("groups in the envelope and the list: %d items, %v", len(items), err)
	}
	mismatched := append(protowire.AppendTag(nil, 9, protowire.StartGroupType), protowire.AppendTag(nil, 8, protowire.EndGroupType)...)
	if _, _, _, err := readAll(body(msg(mismatched, bytesField(2, item))), "PartialObjectMetadataList"); err == nil || !strings.Contains(err.Error(), "ended as") {
		t.Errorf("a group ended by another number: %v", err)
	}
	open := protowire.AppendTag(nil, 9, protowire.StartGroupType)
	if _, _, _, err := readAll(body(msg(bytesField(2, item), open)), "PartialObjectMetadataList"); err == nil {
		t.Error("a group still open at the list's end: no error")
	}
}

// TestReadListOverrun: a varint that runs past the end of its list, into the envelope, is an error.
func TestReadListOverrun(t *testing.T) {
	typeMeta := bytesField(1, string(msg(bytesField(2, "PartialObjectMetadataList"))))
	list := []byte{5<<3 | byte(protowire.VarintType), 0x80} // field 5, a varint continued past the list
	body := append([]byte(Magic), msg(typeMeta, bytesField(2, string(list)), bytesField(3, ""))...)
	if _, _, _, err := readAll(body, "PartialObjectMetadataList"); err == nil || !strings.Contains(err.Error(), "overran") {
		t.Errorf("a list that overran its envelope: %v", err)
	}
}
