package health

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"

	"kscope/kubeproto"
)

// The API server's serializers, as it encodes objects for a client that asks for JSON or protobuf.
var (
	jsonWire  = json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme.Scheme, scheme.Scheme, json.SerializerOptions{})
	protoWire = protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
)

// gvkOf returns the kind scheme registers obj's type as.
func gvkOf(t testing.TB, obj runtime.Object) schema.GroupVersionKind {
	t.Helper()
	gvks, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		t.Fatalf("kind of %T: %v", obj, err)
	}
	return gvks[0]
}

// encode encodes obj as the API server does with s, at obj's version.
func encode(t testing.TB, s runtime.Serializer, obj runtime.Object) []byte {
	t.Helper()
	b, err := runtime.Encode(scheme.Codecs.EncoderForVersion(s, gvkOf(t, obj).GroupVersion()), obj)
	if err != nil {
		t.Fatalf("encode %T: %v", obj, err)
	}
	return b
}

// jsonStatus is what the HEALTH column's JSON path computes for obj: StatusOf of the object as the dynamic
// client decodes the server's JSON of it.
func jsonStatus(t testing.TB, obj runtime.Object) Status {
	t.Helper()
	u := &unstructured.Unstructured{}
	if _, _, err := unstructured.UnstructuredJSONScheme.Decode(encode(t, jsonWire, obj), nil, u); err != nil {
		t.Fatalf("decode the JSON of %T: %v", obj, err)
	}
	return StatusOf(u)
}

// protoRaw returns the protobuf message of obj as the server's body carries it (without the envelope).
func protoRaw(t testing.TB, obj runtime.Object) []byte {
	t.Helper()
	kind, raw, err := kubeproto.Unwrap(encode(t, protoWire, obj))
	if err != nil || kind != gvkOf(t, obj).Kind {
		t.Fatalf("unwrap %T: kind %q, %v", obj, kind, err)
	}
	return raw
}

// protoKindOf returns the ProtoKind of obj's kind.
func protoKindOf(t testing.TB, obj runtime.Object) *ProtoKind {
	t.Helper()
	gvk := gvkOf(t, obj)
	for _, k := range protoKinds {
		if k.gvk == gvk {
			return k
		}
	}
	t.Fatalf("no ProtoKind for %s", gvk)
	return nil
}

// checkSame checks that the protobuf path computes obj's status as the JSON path does, and keeps its
// identity; it returns the status.
func checkSame(t testing.TB, what string, obj runtime.Object) Status {
	t.Helper()
	want := jsonStatus(t, obj)
	got, err := protoKindOf(t, obj).Read(protoRaw(t, obj))
	if err != nil {
		t.Fatalf("%s: read: %v", what, err)
	}
	if got.Status != want {
		t.Fatalf("%s: protobuf %s, JSON %s\n%s", what, got.Status, want, encode(t, jsonWire, obj))
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Name) != m.GetName() || string(got.Namespace) != m.GetNamespace() || string(got.UID) != string(m.GetUID()) ||
		string(got.ResourceVersion) != m.GetResourceVersion() {
		t.Fatalf("%s: identity %q %q %q %q", what, got.Namespace, got.Name, got.UID, got.ResourceVersion)
	}
	return want
}
