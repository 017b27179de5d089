package watch

import (
	"bytes"
	"reflect"
	"testing"
	"time"
	"unsafe"
)

// reflectDecodeList decodes a list response the way watch events are decoded (json-iterator's reflection into
// wireTable, then converter.convert): the reference rowDecoder must agree with.
func reflectDecodeList(body []byte, allNamespaces bool) ([]*rowObject, error) {
	var t wireTable
	if err := jsonAPI.Unmarshal(body, &t); err != nil {
		return nil, err
	}
	return newConverter(allNamespaces, nil).convert(&t)
}

// sameRows reports how got and want differ ("" for not at all). A creation time estimated from an Age cell
// (a row without metadata) may differ by the clock's tick between the two decodes.
func sameRows(got, want []*rowObject) string {
	if len(got) != len(want) {
		return "row counts differ"
	}
	for i := range got {
		g, w := *got[i].get(), *want[i].get()
		if d := g.Created.Sub(w.Created); w.ResourceVersion == "" && d < 2*time.Second && d > -2*time.Second {
			g.Created = w.Created
		}
		if !reflect.DeepEqual(g, w) || !reflect.DeepEqual(got[i].annotations, want[i].annotations) {
			return "row " + g.Key + " differs"
		}
	}
	return ""
}

// TestRowDecoderEqualsReflection: lists decoded field by field give the rows the reflection path gives, for
// every kind of cell, metadata with labels, annotations and timestamps, and rows without metadata.
func TestRowDecoderEqualsReflection(t *testing.T) {
	cols := `"columnDefinitions":[{"name":"Name","type":"string","format":"name"},{"name":"N","type":"integer"},` +
		`{"name":"X","type":"string"},{"name":"Age","type":"string","description":"CreationTimestamp is …"}]`
	for _, tc := range []struct{ name, rows string }{
		{"metadata", `[{"cells":["web-1",3,"Running","5m"],"object":{"kind":"PartialObjectMetadata","metadata":` +
			`{"name":"web-1","namespace":"shop","uid":"u1","resourceVersion":"77","creationTimestamp":"2026-11-29T18:00:00Z",` +
			`"labels":{"app":"web","tier":"front"},"annotations":{"big":"x"},"ownerReferences":[{"kind":"ReplicaSet"}],` +
			`"managedFields":[{"manager":"m","fieldsV1":{"f:metadata":{}}}]}}}]`},
		{"escapes and odd cells", `[{"cells":["a\"b","\u001b[31mred\nsecond",{"x":[1,2.5]},null,true,false,-0.5,12345678901234],` +
			`"object":{"metadata":{"name":"a\"b","namespace":"n\u00e9","creationTimestamp":null,"labels":null}}}]`},
		{"no metadata (includeObject=None)", `[{"cells":["web-1",1,"Running","3d4h"]},{"cells":["web-2",2,"Pending","45s"]}]`},
		{"initial-events-end kept", `[{"cells":["x",1,"y","1m"],"object":{"metadata":{"name":"x","namespace":"n",` +
			`"resourceVersion":"9","annotations":{"a":"b","k8s.io/initial-events-end":"true"}}}}]`},
		{"repeated texts", `[{"cells":["p-1",1,"Running","1m"],"object":{"metadata":{"name":"p-1","namespace":"n","resourceVersion":"1"}}},` +
			`{"cells":["p-2",1,"Running","1m"],"object":{"metadata":{"name":"p-2","namespace":"n","resourceVersion":"2"}}}]`},
		{"empty", `[]`},
	} {
		for _, all := range []bool{false, true} {
			body := []byte(`{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"5"},` + cols + `,"rows":` + tc.rows + `}`)
			_, got, err := decodeList(bytes.NewReader(body), newConverter(all, nil))
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			want, err := reflectDecodeList(body, all)
			if err != nil {
				t.Fatalf("%s: reference: %v", tc.name, err)
			}
			if d := sameRows(got, want); d != "" {
				t.Errorf("%s (all namespaces %v): %s\n got %+v\nwant %+v", tc.name, all, d, rowsOf(got), rowsOf(want))
			}
		}
	}
}

// TestRowDecoderSharesTexts: a cell text repeated across a list's rows is one string.
func TestRowDecoderSharesTexts(t *testing.T) {
	_, rows, err := decodeList(bytes.NewReader(benchPodTable(3, true)), newConverter(true, nil))
	if err != nil || len(rows) != 3 {
		t.Fatal(err, len(rows))
	}
	a, b := rows[0].get(), rows[2].get()
	for i := range a.Cells {
		if i == 1 { // the name
			continue
		}
		if a.Cells[i] == b.Cells[i] && a.Cells[i] != "" && unsafe.StringData(a.Cells[i]) != unsafe.StringData(b.Cells[i]) {
			t.Errorf("cell %d %q is held twice", i, a.Cells[i])
		}
	}
}

func rowsOf(os []*rowObject) []Row {
	out := make([]Row, len(os))
	for i, o := range os {
		out[i] = *o.get()
	}
	return out
}
