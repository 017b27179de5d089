package watch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/types"

	"kscope/kubeproto"
)

// decodeMetadataList reads the PartialObjectMetadataList in r with readMetadataList and returns the items'
// metadata in order with the list's.
func decodeMetadataList(r io.Reader, onList func(wireMeta)) ([]wireMeta, wireMeta, error) {
	items := []wireMeta{}
	list, err := readMetadataList(r, onList, func(m wireMeta) error {
		items = append(items, m)
		return nil
	})
	if err != nil {
		return nil, list, err
	}
	return items, list, nil
}

// encodeMetadataList encodes l as the apiserver does for metadataListAccept (the protobuf serializer's envelope).
func encodeMetadataList(t testing.TB, l *metav1.PartialObjectMetadataList) []byte {
	t.Helper()
	l.TypeMeta = metav1.TypeMeta{Kind: "PartialObjectMetadataList", APIVersion: "meta.k8s.io/v1"}
	var b bytes.Buffer
	if err := protobuf.NewSerializer(nil, nil).Encode(l, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// referenceMetadataList decodes body with the generated protobuf code, into what the decoder keeps.
func referenceMetadataList(body []byte) ([]wireMeta, wireMeta, error) {
	if !bytes.HasPrefix(body, []byte(kubeproto.Magic)) {
		return nil, wireMeta{}, kubeproto.ErrNotProtobuf
	}
	var unk runtime.Unknown
	if err := unk.Unmarshal(body[len(kubeproto.Magic):]); err != nil {
		return nil, wireMeta{}, err
	}
	if unk.Kind != "PartialObjectMetadataList" {
		return nil, wireMeta{}, fmt.Errorf("kind %q", unk.Kind)
	}
	var l metav1.PartialObjectMetadataList
	if err := l.Unmarshal(unk.Raw); err != nil {
		return nil, wireMeta{}, err
	}
	list := wireMeta{ResourceVersion: l.ResourceVersion, Continue: l.Continue, RemainingItemCount: l.RemainingItemCount}
	items := []wireMeta{}
	for _, it := range l.Items {
		m := wireMeta{Name: it.Name, Namespace: it.Namespace, UID: it.UID, ResourceVersion: it.ResourceVersion,
			CreationTimestamp: it.CreationTimestamp, Labels: it.Labels}
		if len(m.Labels) == 0 {
			m.Labels = nil
		}
		items = append(items, m)
	}
	return items, list, nil
}

// sampleMetadataList is a list whose objects carry every metadata field, the ones the decoder skips included.
func sampleMetadataList(n int) *metav1.PartialObjectMetadataList {
	created := metav1.NewTime(time.Date(2026, 11, 30, 8, 15, 42, 0, time.UTC))
	deleted := metav1.NewTime(created.Add(time.Hour))
	grace := int64(30)
	left := int64(12345)
	l := &metav1.PartialObjectMetadataList{ListMeta: metav1.ListMeta{ResourceVersion: "9876", Continue: "eyJ2IjoibWV0YSJ9",
		RemainingItemCount: &left}}
	for i := range n {
		m := metav1.ObjectMeta{
			Name: fmt.Sprintf("pod-%05d", i), GenerateName: "pod-", Namespace: fmt.Sprintf("ns-%d", i%3),
			UID: types.UID(fmt.Sprintf("uid-%d", i)), ResourceVersion: fmt.Sprint(1000 + i), Generation: int64(i),
			CreationTimestamp: created, DeletionTimestamp: &deleted, DeletionGracePeriodSeconds: &grace,
			Labels:      map[string]string{"app": "shop", "pod-template-hash": fmt.Sprintf("h%d", i%7), "é": "ü\n"},
			Annotations: map[string]string{"kubectl.kubernetes.io/last-applied-configuration": strings.Repeat("{x}", 500)},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs",
				UID: "rs-uid"}},
			Finalizers: []string{"example.com/hold"},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply,
				APIVersion: "v1", Time: &created, FieldsType: "FieldsV1",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{"f:app":{}}}}`)}}},
		}
		switch i % 5 {
		case 1:
			m.Labels = nil
		case 2:
			m.CreationTimestamp = metav1.Time{}
		}
		l.Items = append(l.Items, metav1.PartialObjectMetadata{ObjectMeta: m})
	}
	return l
}

// TestDecodeMetadataListEqualsGenerated: the streaming decoder reads what the generated protobuf code reads,
// for the fields kscope keeps, over lists large enough to cross the reader's buffers; the list's metadata is
// passed on before the items.
func TestDecodeMetadataListEqualsGenerated(t *testing.T) {
	for _, n := range []int{0, 1, 7, 300} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			body := encodeMetadataList(t, sampleMetadataList(n))
			wantItems, wantList, err := referenceMetadataList(body)
			if err != nil {
				t.Fatal(err)
			}
			var early *wireMeta
			items, list, err := decodeMetadataList(bytes.NewReader(body), func(m wireMeta) { early = &m })
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(items, wantItems) {
				t.Errorf("items differ:\n got %+v\nwant %+v", head(items), head(wantItems))
			}
			if !reflect.DeepEqual(list, wantList) || early == nil || !reflect.DeepEqual(*early, wantList) {
				t.Errorf("list metadata %+v (early %+v), want %+v", list, early, wantList)
			}
		})
	}
}

func head(ms []wireMeta) []wireMeta { return ms[:min(3, len(ms))] }

// TestDecodeMetadataListSharesNamespaces: the objects of one namespace share one string for it.
func TestDecodeMetadataListSharesNamespaces(t *testing.T) {
	items, _, err := decodeMetadataList(bytes.NewReader(encodeMetadataList(t, sampleMetadataList(6))), nil)
	if err != nil {
		t.Fatal(err)
	}
	if unsafe.StringData(items[0].Namespace) != unsafe.StringData(items[3].Namespace) {
		t.Error("the namespace of two objects of ns-0 is held twice")
	}
}

// TestDecodeMetadataListRefusesBadBodies: a body that is not a protobuf metadata list, or that breaks off
// anywhere (even between two objects), is an error, never a shorter list.
func TestDecodeMetadataListRefusesBadBodies(t *testing.T) {
	body := encodeMetadataList(t, sampleMetadataList(4))
	status := &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Message: "no"}
	var sb bytes.Buffer
	if err := protobuf.NewSerializer(nil, nil).Encode(status, &sb); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"json":   []byte(`{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","items":[]}`),
		"empty":  nil,
		"status": sb.Bytes(),
	} {
		if _, _, err := decodeMetadataList(bytes.NewReader(b), nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, _, err := decodeMetadataList(bytes.NewReader([]byte(`{"kind":"Table"}`)), nil); !errors.Is(err, kubeproto.ErrNotProtobuf) {
		t.Errorf("a JSON body: %v, want kubeproto.ErrNotProtobuf", err)
	}
	// The envelope ends with its empty contentEncoding and contentType (fields 3 and 4): a body cut there still
	// holds the whole list.
	tail := []byte{3<<3 | 2, 0, 4<<3 | 2, 0}
	if !bytes.HasSuffix(body, tail) {
		t.Fatalf("the envelope does not end with empty fields 3 and 4: % x", body[len(body)-4:])
	}
	for cut := len(kubeproto.Magic); cut < len(body)-len(tail); cut++ {
		if items, _, err := decodeMetadataList(bytes.NewReader(body[:cut]), nil); err == nil {
			t.Fatalf("cut at %d of %d: no error, %d items", cut, len(body), len(items))
		}
	}
}

// FuzzDecodeMetadataList: whatever body the generated code decodes, the streaming decoder decodes to the same.
func FuzzDecodeMetadataList(f *testing.F) {
	f.Add(encodeMetadataList(f, sampleMetadataList(2)))
	f.Add(encodeMetadataList(f, sampleMetadataList(0)))
	f.Fuzz(func(t *testing.T, body []byte) {
		wantItems, wantList, err := referenceMetadataList(body)
		items, list, gotErr := decodeMetadataList(bytes.NewReader(body), nil)
		if err != nil {
			return // the streaming decoder skips what it does not keep unchecked: it may take more
		}
		if gotErr != nil {
			t.Fatalf("generated code decodes it, the decoder fails: %v", gotErr)
		}
		if !reflect.DeepEqual(items, wantItems) || !reflect.DeepEqual(list, wantList) {
			t.Fatalf("decoded differently:\n got %+v %+v\nwant %+v %+v", head(items), list, head(wantItems), wantList)
		}
	})
}

// BenchmarkDecodeMetadataList decodes a protobuf metadata list of 20k objects (the fill reads its later pages so).
func BenchmarkDecodeMetadataList(b *testing.B) {
	body := encodeMetadataList(b, sampleMetadataList(20000))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := decodeMetadataList(bytes.NewReader(body), nil); err != nil {
			b.Fatal(err)
		}
	}
}
