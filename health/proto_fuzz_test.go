package health

import (
	"math/rand/v2"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"

	"kscope/kubeproto"
)

// unmarshaler is the generated code's decoder of a built-in type.
type unmarshaler interface {
	runtime.Object
	Unmarshal([]byte) error
}

// FuzzProtoRead checks the reader against the generated code on the protobuf of an object of every kind
// (kind picks one of protoKinds): where the generated Unmarshal accepts the bytes and the server could send
// the object as JSON, the reader computes from these bytes (if it accepts them too: it does not validate what
// it skips) the status the JSON path computes, and it must accept the object encoded again and agree.
func FuzzProtoRead(f *testing.F) {
	g := gen{r: rand.New(rand.NewPCG(3, 4)), base: new(int32)}
	makers := []func(int) runtime.Object{g.pod, g.deployment, g.statefulSet, g.daemonSet, g.replicaSet, g.job,
		g.claim, g.service, g.budget, g.others}
	for i, make := range makers {
		for j := range 5 {
			obj := make(i*10 + j)
			k := protoKindOf(f, obj)
			for n, pk := range protoKinds {
				if pk == k {
					f.Add(uint8(n), protoRaw(f, obj))
				}
			}
		}
	}
	f.Add(uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		k := protoKinds[int(kind)%len(protoKinds)]
		obj, err := scheme.Scheme.New(k.gvk)
		if err != nil {
			t.Fatal(err)
		}
		ref, ok := obj.(unmarshaler)
		if !ok {
			t.Fatalf("%T has no Unmarshal", obj)
		}
		if ref.Unmarshal(data) != nil {
			return
		}
		ref.GetObjectKind().SetGroupVersionKind(k.gvk)
		want, ok := serverJSONStatus(ref)
		if !ok {
			return // (an object the server could not write as JSON: managedFields that are not JSON, say)
		}
		if got, err := k.Read(data); err == nil && got.Status != want {
			t.Fatalf("%s: read %s, the JSON path %s", k.gvk.Kind, got.Status, want)
		}
		raw, err := runtime.Encode(scheme.Codecs.EncoderForVersion(protoWire, k.gvk.GroupVersion()), ref)
		if err != nil {
			return
		}
		if got, err := k.Read(unwrapped(t, raw)); err != nil || got.Status != want {
			t.Fatalf("%s encoded again: %+v, %v; the JSON path %s", k.gvk.Kind, got, err, want)
		}
	})
}

// serverJSONStatus is jsonStatus, false where the object cannot be written or read as JSON.
func serverJSONStatus(obj runtime.Object) (Status, bool) {
	b, err := runtime.Encode(scheme.Codecs.EncoderForVersion(jsonWire, obj.GetObjectKind().GroupVersionKind().GroupVersion()), obj)
	if err != nil {
		return "", false
	}
	u := &unstructured.Unstructured{}
	if _, _, err := unstructured.UnstructuredJSONScheme.Decode(b, nil, u); err != nil {
		return "", false
	}
	return StatusOf(u), true
}

// unwrapped returns the object of a protobuf body.
func unwrapped(t *testing.T, body []byte) []byte {
	t.Helper()
	_, raw, err := kubeproto.Unwrap(body)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
