package watch

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestJSONSourceSameAsInformer: a source that no protobuf codec reads (here custom columns and a HEALTH
// column, computed from the whole object, over pods) lists and watches in JSON alone, each list item read as
// it arrives, and its rows are the dynamic informer's: listed, after watch events and after a relist.
func TestJSONSourceSameAsInformer(t *testing.T) {
	spec := func() Spec {
		s := columnsSpec(t)
		s.Columns = append(s.Columns, HealthColumn())
		return s
	}
	want, _ := objectScript(t, "json", false, spec(), "True", "<none>")
	got, f := objectScript(t, "protobuf", false, spec(), "True", "<none>")
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d: rows read by the JSON codec\n%s\nthe informer's\n%s", i, got[i], want[i])
		}
	}
	if !strings.Contains(want[0], `shop/ready ready u-ready 101 ["True" "ready" "nginx" "Running" "Pod" "<none>" "<none>" "Current"]`) {
		t.Errorf("rows\n%s", want[0])
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, a := range f.accepts {
		if a != "application/json" {
			t.Errorf("request %d: Accept %q, want JSON alone", i, a)
		}
	}
}

// TestDecodeJSONListAsUnstructured: a JSON list read item by item gives each item the content the dynamic
// client's decoding gives it (UnstructuredList): numbers as int64 or float64, and the kind and apiVersion of
// its list where it has neither, whatever the order of the list's fields; an item's own kind is kept.
func TestDecodeJSONListAsUnstructured(t *testing.T) {
	gvr := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	spec := Spec{GVR: gvr, Namespaced: true}
	for _, expr := range []string{"{.kind}", "{.apiVersion}", "{.metadata.name}", "{.spec.n}", "{.spec.f}", "{.spec.big}",
		"{.spec.list}", "{.spec.map}"} {
		c, err := JSONPathColumn(expr, expr)
		if err != nil {
			t.Fatal(err)
		}
		spec.Columns = append(spec.Columns, c)
	}
	item := func(name, typeMeta string) string {
		return `{` + typeMeta + `"metadata":{"name":"` + name + `","namespace":"a","uid":"u-` + name + `","resourceVersion":"7"},` +
			`"spec":{"n":3,"f":1.5,"big":12345678901234,"list":[1,"x",null,true],"map":{"b":2,"a":{"c":[]}}}}`
	}
	own := `"kind":"Gadget","apiVersion":"example.com/v2",`
	for _, tt := range []struct{ name, body string }{
		{"kind first, items without kind", `{"kind":"WidgetList","apiVersion":"example.com/v1","metadata":{"resourceVersion":"9"},"items":[` +
			item("one", "") + `,` + item("two", "") + `]}`},
		{"items before kind (an UnstructuredList's order)", `{"apiVersion":"example.com/v1","items":[` + item("one", "") + `,` +
			item("two", own) + `],"kind":"WidgetList","metadata":{"continue":"","resourceVersion":"9"}}`},
		{"items with a kind of their own", `{"apiVersion":"example.com/v1","items":[` + item("one", own) + `],"kind":"WidgetList",` +
			`"metadata":{"resourceVersion":"9"},"extra":{"ignored":[1,2]}}`},
		{"no items", `{"kind":"WidgetList","apiVersion":"example.com/v1","metadata":{"resourceVersion":"9"},"items":[]}`},
		{"null items", `{"kind":"WidgetList","apiVersion":"example.com/v1","metadata":{"resourceVersion":"9"},"items":null}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src, err := NewObjectSource(nil, spec)
			if err != nil {
				t.Fatal(err)
			}
			lw := &protoListWatch{spec: spec, codec: jsonCodec{src: src}, jsonOnly: true}
			got, err := lw.decodeJSONList(strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			obj, _, err := unstructured.UnstructuredJSONScheme.Decode([]byte(tt.body), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			ul := obj.(*unstructured.UnstructuredList)
			if got.ResourceVersion != "9" || len(got.Items) != len(ul.Items) {
				t.Fatalf("resourceVersion %q, %d items; want 9, %d", got.ResourceVersion, len(got.Items), len(ul.Items))
			}
			for i := range ul.Items {
				want, _ := jsonCodec{src: src}.jsonRow(&ul.Items[i])
				if g, w := fmt.Sprintf("%+v", *got.Items[i].get()), fmt.Sprintf("%+v", *want.get()); g != w {
					t.Errorf("item %d:\n got %s\nwant %s", i, g, w)
				}
			}
		})
	}
}

// TestDecodeJSONListRefuses: a body that is not a list of objects is an error, not rows.
func TestDecodeJSONListRefuses(t *testing.T) {
	spec := Spec{GVR: podsGVR(), Namespaced: true, Columns: []ObjectColumn{HealthColumn()}}
	src, err := NewObjectSource(nil, spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		`{"kind":"Status","apiVersion":"v1","status":"Failure"}`,
		`{"kind":"PodList","items":[1]}`,
		`{"kind":"PodList","items":{"a":1}}`,
		`{"kind":"PodList","items":[{"metadata":{"name":"a"}}`,
		`["not", "an", "object"]`,
		``,
	} {
		lw := &protoListWatch{spec: spec, codec: jsonCodec{src: src}, jsonOnly: true}
		if l, err := lw.decodeJSONList(strings.NewReader(body)); err == nil {
			t.Errorf("%s: %d rows, no error", body, len(l.Items))
		}
	}
}
