package watch

import (
	"bytes"
	"io"
	"strings"
	"testing"

	jsoniter "github.com/json-iterator/go"
)

// The fuzz targets below run their seeds (f.Add and testdata/fuzz/<name>) under plain `go test`; `make fuzz`
// explores further with `go test -fuzz`.

// FuzzParseFilter: whatever the user types after `/`, ParseFilter returns a Filter or an error, never
// panics; a parsed Filter matches any row without panicking; and the literal fast path gives the same answer
// as the regular expression it stands for.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []struct{ text, cell string }{
		{"web", "web-7f9c"}, {"WEB-7F", "web-7f9c"}, {"10.0.0.12", "10.0.0.12"}, {"^1/1$", "1/1"},
		{"run+ing|pending", "Running"}, {"-l app=web", ""}, {"-l tier in (front,back)", ""}, {"-l app in (", ""},
		{"web(", "web("}, {"[", "["}, {"(?i", ""}, {"-l ", ""}, {"   ", "x"}, {"kube", "\u212aube"},
		{"s", "\u017f"}, {"ß", "SS"}, {"é", "É"}, {"\x00", "\x00"}, {"a{1000}", "a"}, {"-l a=b,c!=d,!e", ""},
	} {
		f.Add(s.text, s.cell)
	}
	f.Fuzz(func(t *testing.T, text, cell string) {
		flt, err := ParseFilter(text)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("ParseFilter(%q): empty error message", text)
			}
			return
		}
		if flt.Empty() != (strings.TrimSpace(text) == "") {
			t.Fatalf("ParseFilter(%q).Empty() = %v", text, flt.Empty())
		}
		if flt.String() != strings.TrimSpace(text) {
			t.Fatalf("ParseFilter(%q).String() = %q", text, flt.String())
		}
		row := &Row{Cells: []string{cell, "x"}, Labels: map[string]string{"app": cell}}
		got := flt.Match(row)
		if flt.lit != "" && flt.re != nil {
			want := flt.re.MatchString(cell) || flt.re.MatchString("x")
			if got != want {
				t.Fatalf("filter %q on cell %q: literal match %v, regular expression %v", text, cell, got, want)
			}
		}
	})
}

// FuzzDecodeList: any response body to a list request becomes rows or an error, never a panic; every row's
// key is its namespace/name and no Table cell can move the terminal (line breaks, escape characters).
func FuzzDecodeList(f *testing.F) {
	seeds := []string{
		podTable,
		`{"kind":"WidgetList","apiVersion":"x/v1","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"a","creationTimestamp":"2026-01-02T03:04:05Z"}}]}`,
		`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods is forbidden","reason":"Forbidden","code":403}`,
		`{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"rows":[{"cells":["a\nb","\u001b[31mred",{"x":[1,2.5]},null,true,1e400],"object":{"metadata":{"name":"a"}}}],"columnDefinitions":[{"name":"Name","type":"string","format":"name"}]}`,
		`{"kind":"Table","apiVersion":"meta.k8s.io/v1","columnDefinitions":[],"rows":[{"cells":[]}]}`,
		`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"}}`,
		`[]`, `{}`, `{"rows":[`, `{"rows":[{"cells":["`, `{"rows":[{"cells":["abc`, `{"kind":"Table","apiVersion":"meta.k8s.io/v1","rows":[{"cells":["` + "\"",
	}
	for _, s := range seeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, body []byte, allNamespaces bool) {
		conv := newConverter(allNamespaces, nil)
		_, rows, err := decodeList(bytes.NewReader(body), conv)
		if err != nil {
			return
		}
		for _, o := range rows {
			checkRow(t, o, allNamespaces)
		}
		if want, err := reflectDecodeList(body, allNamespaces); err == nil && bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
			if d := sameRows(rows, want); d != "" {
				t.Fatalf("the row decoder and the reflection path differ: %s", d)
			}
		}
	})
}

// FuzzWatchStream: any watch stream decodes event by event into rows, BOOKMARKs, Status errors or an error
// that ends the stream; never a panic, and never an endless loop.
func FuzzWatchStream(f *testing.F) {
	one := podTable[:strings.Index(podTable, `,
 {"cells":["web-2"`)] + `]}`
	f.Add([]byte(`{"type":"ADDED","object":`+one+"}\n"+
		`{"type":"DELETED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"rows":[{"cells":["web-1"],"object":{"metadata":{"name":"web-1","namespace":"shop","resourceVersion":"150"}}}]}}`+"\n"+
		`{"type":"BOOKMARK","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"rows":[{"cells":null,"object":{"metadata":{"resourceVersion":"160","annotations":{"k8s.io/initial-events-end":"true"}}}}]}}`+"\n"), true)
	f.Add([]byte(`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410,"message":"too old resource version"}}`), false)
	f.Add([]byte(`{"type":"MODIFIED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","rows":[]}}`), false)
	f.Add([]byte(`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"3"}}}`), false)
	f.Add([]byte(`{"type":"NOPE","object":{}} {"type":"ADDED"`), false)
	f.Add([]byte("\n\n   "), false)
	f.Fuzz(func(t *testing.T, stream []byte, allNamespaces bool) {
		conv := newConverter(allNamespaces, nil)
		d := &tableWatchDecoder{body: io.NopCloser(bytes.NewReader(stream)),
			iter: jsoniter.Parse(jsonAPI, bytes.NewReader(stream), 64), conv: conv}
		defer d.Close()
		for i := 0; ; i++ {
			if i > len(stream)+1 {
				t.Fatalf("%d events from %d bytes: the decoder does not advance", i, len(stream))
			}
			typ, obj, err := d.Decode()
			if err != nil {
				return
			}
			if o, ok := obj.(*rowObject); ok && typ != "BOOKMARK" {
				checkRow(t, o, allNamespaces)
			}
		}
	})
}

// checkRow checks what the UI relies on in a converted row.
func checkRow(t *testing.T, o *rowObject, allNamespaces bool) {
	t.Helper()
	if o == nil || o.get() == nil {
		t.Fatal("nil row")
	}
	r := o.get()
	if r.Key != rowKey(r.Namespace, r.Name) {
		t.Fatalf("row key %q for namespace %q name %q", r.Key, r.Namespace, r.Name)
	}
	from := 0
	if allNamespaces {
		from = 1
		if len(r.Cells) == 0 || r.Cells[0] != r.Namespace {
			t.Fatalf("all-namespaces row %q does not start with its namespace %q", r.Cells, r.Namespace)
		}
	}
	for _, c := range r.Cells[from:] {
		if strings.ContainsAny(c, "\n\r\f\x1b") {
			t.Fatalf("cell %q can move the terminal", c)
		}
	}
}
