package watch

import (
	gojson "encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/watch"
)

// The protobuf ListWatch's JSON path: for a kind the server serves in JSON only (a custom resource: jsonCodec),
// and for a server (or a proxy) that answers in JSON although asked for protobuf first. A list is read as a
// stream, one item at a time: each is decoded into its JSON content as the dynamic client decodes it (numbers
// as int64 or float64, k8s.io/apimachinery/pkg/util/json), given the kind and apiVersion its list implies
// where it lacks them (as UnstructuredList does), and turned into its row (rowCodec.jsonRow) before the next
// is read. So the list is decoded once and never held whole, and its first rows can show while it arrives.

// decodeJSONList reads a JSON list body item by item and returns its rows.
func (lw *protoListWatch) decodeJSONList(r io.Reader) (*rowList, error) {
	dec := gojson.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	list := &rowList{Items: []*rowObject{}}
	var kind, apiVersion string
	// pending are the items read before their list's kind from the first that lacks its own (a server writes
	// a list's fields in any order): they become rows, in order, once it is known.
	var pending []map[string]any
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("decode: %w", err)
		}
		switch key {
		case "kind":
			err = dec.Decode(&kind)
		case "apiVersion":
			err = dec.Decode(&apiVersion)
		case "metadata":
			err = dec.Decode(&list.ListMeta)
		case "items":
			err = decodeJSONItems(dec, func(item map[string]any) error {
				if kind == "" && (len(pending) > 0 || missingTypeMeta(item)) {
					pending = append(pending, item)
					return nil
				}
				return lw.appendJSONItem(list, item, kind, apiVersion)
			})
		default:
			var skip gojson.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return nil, fmt.Errorf("decode %v: %w", key, err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, err
	}
	if want := lw.codec.ListKind(); (want != "" && kind != want) || (want == "" && !strings.HasSuffix(kind, "List")) {
		return nil, fmt.Errorf("a %q where a list of %s was expected", kind, lw.spec.GVR.Resource)
	}
	for _, item := range pending {
		if err := lw.appendJSONItem(list, item, kind, apiVersion); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// decodeJSONItems reads a list's items array (null: none, as UnstructuredList reads it), passing each item's
// JSON content to each.
func decodeJSONItems(dec *gojson.Decoder, each func(map[string]any) error) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	if d, ok := t.(gojson.Delim); !ok || d != '[' {
		return fmt.Errorf("items: %v where [ was expected", t)
	}
	var raw gojson.RawMessage
	for n := 0; dec.More(); n++ {
		raw = raw[:0]
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("item %d: %w", n, err)
		}
		var item map[string]any
		if err := utiljson.Unmarshal(raw, &item); err != nil {
			return fmt.Errorf("item %d: %w", n, err)
		}
		if item == nil {
			return fmt.Errorf("item %d: not an object", n)
		}
		if err := each(item); err != nil {
			return err
		}
	}
	return expectDelim(dec, ']')
}

// appendJSONItem turns item, of a list of kind listKind, into its row, appended to list (and shown early
// where the list is the first).
func (lw *protoListWatch) appendJSONItem(list *rowList, item map[string]any, listKind, apiVersion string) error {
	if missingTypeMeta(item) {
		item["kind"], item["apiVersion"] = strings.TrimSuffix(listKind, "List"), apiVersion
	}
	o, err := lw.codec.jsonRow(&unstructured.Unstructured{Object: item})
	return lw.addRow(list, o, err)
}

// missingTypeMeta tells whether a list's item has neither kind nor apiVersion (a built-in kind's list item),
// which UnstructuredList gives it from its list.
func missingTypeMeta(item map[string]any) bool {
	k, _ := item["kind"].(string)
	v, _ := item["apiVersion"].(string)
	return k == "" && v == ""
}

// expectDelim reads the next token, which must be want.
func expectDelim(dec *gojson.Decoder, want gojson.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if d, ok := t.(gojson.Delim); !ok || d != want {
		return fmt.Errorf("decode: %v where %v was expected", t, want)
	}
	return nil
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
	if !ok || (j.lw.codec.Kind() != "" && u.GetKind() != j.lw.codec.Kind()) {
		return "", nil, fmt.Errorf("watch %s event: a %s where a %s was expected", ev.Type,
			obj.GetObjectKind().GroupVersionKind().Kind, j.lw.codec.Kind())
	}
	o, err := j.lw.codec.jsonRow(u)
	if err != nil {
		return "", nil, fmt.Errorf("watch %s event: %w", ev.Type, err)
	}
	return ev.Type, o, nil
}

// jsonCodec is the rowCodec of an ObjectSource over a kind the server serves in JSON only (a custom resource,
// or a kind client-go's scheme lacks), or of columns computed from whole objects (a HEALTH column that no
// health.ProtoKind reads): each object, decoded as the dynamic client decodes it, is cut down as the dynamic
// informer's objects are (ObjectSource.cut, which computes the whole-object cells first) and its row computed
// from that (ObjectSource.row). Its kind is not known ahead: any is taken. Safe for concurrent use.
type jsonCodec struct{ src *ObjectSource }

func (jsonCodec) Kind() string     { return "" }
func (jsonCodec) ListKind() string { return "" }

func (jsonCodec) protoRow([]byte) (*rowObject, error) {
	return nil, errors.New("an object in protobuf where JSON was asked for")
}

func (c jsonCodec) jsonRow(u *unstructured.Unstructured) (*rowObject, error) {
	return newRowObject(c.src.row(&unstructured.Unstructured{Object: c.src.cut(u.Object)}), nil), nil
}
