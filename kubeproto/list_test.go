package kubeproto

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/types"
)

// encode encodes obj as the apiserver writes a protobuf body (magic, runtime.Unknown).
func encode(t testing.TB, obj runtime.Object) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := protobuf.NewSerializer(nil, nil).Encode(obj, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sampleList is a metadata list of n objects with every ListMeta field ReadListMeta reads.
func sampleList(n int) *metav1.PartialObjectMetadataList {
	remaining := int64(7)
	l := &metav1.PartialObjectMetadataList{
		TypeMeta: metav1.TypeMeta{Kind: "PartialObjectMetadataList", APIVersion: "meta.k8s.io/v1"},
		ListMeta: metav1.ListMeta{ResourceVersion: "42", Continue: "token", RemainingItemCount: &remaining, SelfLink: "/x"},
	}
	for i := range n {
		l.Items = append(l.Items, metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("obj-%d", i), Namespace: "ns", UID: types.UID(fmt.Sprint("uid-", i)),
			Labels: map[string]string{"app": "x", "i": fmt.Sprint(i)},
		}})
	}
	return l
}

// readAll reads body with ReadList, returning the items decoded by the generated code and every ListMeta
// passed to Meta, with how many items had been read when it was.
func readAll(body []byte, kind string) ([]metav1.PartialObjectMetadata, []metav1.ListMeta, []int, error) {
	var items []metav1.PartialObjectMetadata
	var metas []metav1.ListMeta
	var at []int
	err := ReadList(bytes.NewReader(body), kind, 1<<20, ListHandler{
		Meta: func(m metav1.ListMeta) error {
			metas, at = append(metas, m), append(at, len(items))
			return nil
		},
		Item: func(b []byte) error {
			var it metav1.PartialObjectMetadata
			if err := it.Unmarshal(b); err != nil {
				return err
			}
			items = append(items, it)
			return nil
		},
	})
	return items, metas, at, err
}

// TestReadListEqualsGenerated: the items handed over, decoded, are the list's items, and the list's metadata
// comes first, as the generated code reads it (selfLink, which ReadListMeta skips, aside) — over lists large
// enough to cross the reader's buffer.
func TestReadListEqualsGenerated(t *testing.T) {
	for _, n := range []int{0, 1, 300} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			want := sampleList(n)
			items, metas, at, err := readAll(encode(t, want), "PartialObjectMetadataList")
			if err != nil {
				t.Fatal(err)
			}
			if len(items) != n || n > 0 && !reflect.DeepEqual(items, want.Items) {
				t.Errorf("got %d items, want %d equal to the list's", len(items), n)
			}
			wantMeta := want.ListMeta
			wantMeta.SelfLink = ""
			if len(metas) != 1 || !reflect.DeepEqual(metas[0], wantMeta) || at[0] != 0 {
				t.Errorf("list metadata %+v (after %v items), want %+v before the items", metas, at, wantMeta)
			}
		})
	}
}

// TestReadListRefusesBadBodies: each body that is not a whole list of the kind asked for is an error of its
// own, never a shorter list.
func TestReadListRefusesBadBodies(t *testing.T) {
	status := encode(t, &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status: metav1.StatusFailure, Reason: metav1.StatusReasonForbidden, Code: 403, Message: "no"})
	tests := []struct {
		name string
		body []byte
		is   func(error) bool
	}{
		{"json", []byte(`{"kind":"PodList"}`), func(err error) bool {
			return errors.Is(err, ErrNotProtobuf) && strings.Contains(err.Error(), "JSON")
		}},
		{"html", []byte("<html>"), func(err error) bool { return errors.Is(err, ErrNotProtobuf) }},
		{"empty", nil, func(err error) bool { return err != nil && !errors.Is(err, ErrNotProtobuf) }},
		{"magic only", []byte(Magic), func(err error) bool { return strings.Contains(err.Error(), "without its list") }},
		{"status", status, apierrors.IsForbidden},
		{"another kind", encode(t, sampleList(2)), func(err error) bool {
			return strings.Contains(err.Error(), "a PartialObjectMetadataList where a PodList was expected")
		}},
	}
	for _, tt := range tests {
		_, _, _, err := readAll(tt.body, "PodList")
		if err == nil || !tt.is(err) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestReadListCutAnywhere: a body cut at any byte before its list's end is an error (the envelope's last two
// fields, empty, may go: the list is whole without them).
func TestReadListCutAnywhere(t *testing.T) {
	body := encode(t, sampleList(5))
	tail := []byte{3<<3 | 2, 0, 4<<3 | 2, 0} // contentEncoding and contentType, both empty
	if !bytes.HasSuffix(body, tail) {
		t.Fatalf("the envelope does not end with empty fields 3 and 4: % x", body[len(body)-4:])
	}
	for cut := 0; cut < len(body)-len(tail); cut++ {
		if items, _, _, err := readAll(body[:cut], "PartialObjectMetadataList"); err == nil {
			t.Fatalf("cut at %d of %d: no error, %d items", cut, len(body), len(items))
		}
	}
}

// TestReadListHandlerError: the handler's error stops the read and is returned as it is.
func TestReadListHandlerError(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := ReadList(bytes.NewReader(encode(t, sampleList(3))), "PartialObjectMetadataList", 1<<20, ListHandler{
		Item: func([]byte) error { calls++; return stop },
	})
	if err != stop || calls != 1 {
		t.Errorf("err %v after %d items, want stop after 1", err, calls)
	}
}

// TestReadListBoundsItems: an item above maxItem is refused rather than read.
func TestReadListBoundsItems(t *testing.T) {
	l := sampleList(1)
	l.Items[0].Labels["big"] = strings.Repeat("x", 500)
	calls := 0
	err := ReadList(bytes.NewReader(encode(t, l)), "PartialObjectMetadataList", 256, ListHandler{
		Item: func([]byte) error { calls++; return nil },
	})
	if calls != 0 {
		t.Errorf("%d items handed over", calls)
	}
	if err == nil || !strings.Contains(err.Error(), "a field of") {
		t.Errorf("an item above the bound: %v", err)
	}
}
