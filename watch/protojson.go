package watch

import (
	gojson "encoding/json"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// The protobuf ListWatch's JSON path, for a server (or a proxy) that answers in JSON although asked for
// protobuf first: the objects are decoded whole, as the dynamic client decodes them, and each one's row
// computed from it (rowCodec.jsonRow) before it is dropped. Its cost is the JSON path's (the whole list held
// while it is decoded); the rows it yields are the protobuf path's.

// decodeJSONList reads a JSON list body whole and returns its rows.
func (lw *protoListWatch) decodeJSONList(r io.Reader) (*rowList, error) {
	body, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(body, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	ul, ok := obj.(*unstructured.UnstructuredList)
	if !ok {
		return nil, fmt.Errorf("a %s where a %s was expected", obj.GetObjectKind().GroupVersionKind().Kind, lw.codec.ListKind())
	}
	list := &rowList{Items: make([]*rowObject, 0, len(ul.Items))}
	list.ResourceVersion, list.Continue, list.RemainingItemCount = ul.GetResourceVersion(), ul.GetContinue(), ul.GetRemainingItemCount()
	for i := range ul.Items {
		o, err := lw.codec.jsonRow(&ul.Items[i])
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		list.Items = append(list.Items, o)
		ul.Items[i] = unstructured.Unstructured{} // (let the object go)
	}
	return list, nil
}

// jsonEvents reads a JSON watch stream (one WatchEvent after another), each object turned into its row.
type jsonEvents struct {
	dec *gojson.Decoder
	lw  *protoListWatch
}

func newJSONEvents(r io.Reader, lw *protoListWatch) *jsonEvents {
	return &jsonEvents{dec: gojson.NewDecoder(r), lw: lw}
}

// next returns the next event: its row, or an ERROR event's Status (as an unstructured object, which
// apierrors.FromObject reads). It returns io.EOF when the stream ended between two events.
func (j *jsonEvents) next() (watch.EventType, runtime.Object, error) {
	var ev struct {
		Type   watch.EventType   `json:"type"`
		Object gojson.RawMessage `json:"object"`
	}
	if err := j.dec.Decode(&ev); err != nil {
		return "", nil, err
	}
	obj, _, err := unstructured.UnstructuredJSONScheme.Decode(ev.Object, nil, nil)
	if err != nil {
		return "", nil, fmt.Errorf("watch %s event: %w", ev.Type, err)
	}
	switch ev.Type {
	case watch.Error:
		return ev.Type, obj, nil
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
	default:
		return "", nil, fmt.Errorf("invalid watch event type %q", ev.Type)
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || u.GetKind() != j.lw.codec.Kind() {
		return "", nil, fmt.Errorf("watch %s event: a %s where a %s was expected", ev.Type,
			obj.GetObjectKind().GroupVersionKind().Kind, j.lw.codec.Kind())
	}
	o, err := j.lw.codec.jsonRow(u)
	if err != nil {
		return "", nil, fmt.Errorf("watch %s event: %w", ev.Type, err)
	}
	return ev.Type, o, nil
}
