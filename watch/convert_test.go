package watch

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	jsoniter "github.com/json-iterator/go"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"kscope/apierr"
)

func TestFormatCell(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`"Running"`, "Running"},
		{`"a\"b"`, `a"b`},
		{`"caf\u00e9"`, "café"},
		{`null`, ""},
		{`true`, "true"},
		{`false`, "false"},
		{`3`, "3"},
		{`-12`, "-12"},
		{`1.5`, "1.5"},
		{`2.0`, "2"},
		{`1e21`, "1e+21"},
		{`0.0000001`, "1e-07"},
		{`9223372036854775807`, "9223372036854775807"},
		{`["a",1]`, "[a 1]"},
		{`{"k":2}`, "map[k:2]"},
		{`"line1\nline2"`, "line1..."},
		{`"a\rb"`, "a..."},
		{`"esc\u001b[31m"`, `esc^[[31m`},
	}
	for _, tt := range tests {
		got, err := formatCell([]byte(tt.in))
		if err != nil {
			t.Errorf("formatCell(%s): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("formatCell(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

const podTable = `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"120"},
"columnDefinitions":[
 {"name":"Name","type":"string","format":"name","description":"Name must be unique","priority":0},
 {"name":"Ready","type":"string","format":"","description":"The aggregate readiness state","priority":0},
 {"name":"Restarts","type":"integer","format":"","description":"restarts","priority":0},
 {"name":"Age","type":"string","format":"","description":"CreationTimestamp is a timestamp representing the server time","priority":0},
 {"name":"IP","type":"string","format":"","description":"IP address","priority":1}],
"rows":[
 {"cells":["web-1","1/1",0,"5m","10.0.0.1"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",
  "metadata":{"name":"web-1","namespace":"shop","uid":"u1","resourceVersion":"101","creationTimestamp":"2026-01-02T03:04:05Z",
  "labels":{"app":"web"},"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"big\":true}"},
  "managedFields":[{"manager":"kubectl","operation":"Update"}]}}},
 {"cells":["web-2","0/1",3,"1h",null],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",
  "metadata":{"name":"web-2","namespace":"data","uid":"u2","resourceVersion":"102","creationTimestamp":"2026-01-02T03:04:06Z"}}}]}`

func TestDecodeListTable(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name      string
		allNS     bool
		wantCols  []string
		wantCells [][]string
	}{
		{"namespace", false, []string{"Name", "Ready", "Restarts", "Age", "IP"},
			[][]string{{"web-1", "1/1", "0", "5m", "10.0.0.1"}, {"web-2", "0/1", "3", "1h", ""}}},
		{"all namespaces", true, []string{"Namespace", "Name", "Ready", "Restarts", "Age", "IP"},
			[][]string{{"shop", "web-1", "1/1", "0", "5m", "10.0.0.1"}, {"data", "web-2", "0/1", "3", "1h", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newConverter(tt.allNS, nil)
			tab, rows, err := decodeList(strings.NewReader(podTable), c)
			if err != nil {
				t.Fatal(err)
			}
			if tab.Metadata.ResourceVersion != "120" {
				t.Errorf("list resourceVersion %q", tab.Metadata.ResourceVersion)
			}
			var names []string
			for _, col := range c.Columns() {
				names = append(names, col.Name)
			}
			if !reflect.DeepEqual(names, tt.wantCols) {
				t.Errorf("columns %v, want %v", names, tt.wantCols)
			}
			cols := c.Columns()
			off := len(cols) - 5
			if !cols[off+3].Age || cols[off+0].Age || cols[off+4].Priority != 1 {
				t.Errorf("column flags wrong: %+v", cols)
			}
			for i, want := range tt.wantCells {
				if got := rows[i].get().Cells; !reflect.DeepEqual(got, want) {
					t.Errorf("row %d cells %q, want %q", i, got, want)
				}
			}
			r := rows[0].get()
			if r.Key != "shop/web-1" || r.UID != "u1" || r.ResourceVersion != "101" || !r.Created.Equal(created) ||
				r.Labels["app"] != "web" {
				t.Errorf("row metadata %+v", r)
			}
			if rows[0].annotations != nil {
				t.Errorf("annotations kept: %v", rows[0].annotations)
			}
		})
	}
}

func TestConvertPlainList(t *testing.T) {
	body := `{"kind":"WidgetList","apiVersion":"x/v1","metadata":{"resourceVersion":"7"},"items":[
	 {"kind":"Widget","metadata":{"name":"a","namespace":"n","resourceVersion":"5","creationTimestamp":"2020-01-01T00:00:00Z"}}]}`
	c := newConverter(false, nil)
	_, rows, err := decodeList(strings.NewReader(body), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].get().Cells[0] != "a" || !strings.HasPrefix(rows[0].get().Cells[1], "6y") {
		t.Fatalf("rows %+v", rows[0].get())
	}
	cols := c.Columns()
	if len(cols) != 2 || cols[0].Name != "Name" || !cols[1].Age {
		t.Errorf("columns %+v", cols)
	}
}

func TestConvertWatchEvents(t *testing.T) {
	c := newConverter(false, nil)
	// The first event carries column definitions and one row.
	var ev wireEvent
	one := podTable[:strings.Index(podTable, `,
 {"cells":["web-2"`)] + `]}`
	if err := json.Unmarshal([]byte(`{"type":"ADDED","object":`+one+`}`), &ev); err != nil {
		t.Fatal(err)
	}
	typ, obj, err := c.event(&ev)
	if err != nil || typ != watch.Added || obj.(*rowObject).get().Name != "web-1" {
		t.Fatalf("added: %v %v %v", typ, obj, err)
	}
	// Later events carry no column definitions.
	later := `{"type":"MODIFIED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"columnDefinitions":null,
	"rows":[{"cells":["web-1","0/1",1,"6m","10.0.0.1"],"object":{"metadata":{"name":"web-1","namespace":"shop","resourceVersion":"130"}}}]}}`
	ev = wireEvent{}
	if err := json.Unmarshal([]byte(later), &ev); err != nil {
		t.Fatal(err)
	}
	typ, obj, err = c.event(&ev)
	if err != nil || typ != watch.Modified {
		t.Fatalf("modified: %v %v", typ, err)
	}
	if got := obj.(*rowObject).get().Cells; !reflect.DeepEqual(got, []string{"web-1", "0/1", "1", "6m", "10.0.0.1"}) {
		t.Errorf("modified cells %q", got)
	}
	bookmark := `{"type":"BOOKMARK","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"columnDefinitions":null,
	"rows":[{"cells":null,"object":{"kind":"PartialObjectMetadata","metadata":{"resourceVersion":"140",
	"annotations":{"k8s.io/initial-events-end":"true"}}}}]}}`
	ev = wireEvent{}
	if err := json.Unmarshal([]byte(bookmark), &ev); err != nil {
		t.Fatal(err)
	}
	typ, obj, err = c.event(&ev)
	o := obj.(*rowObject)
	if err != nil || typ != watch.Bookmark || o.GetResourceVersion() != "140" ||
		o.GetAnnotations()[initialEventsEnd] != "true" {
		t.Fatalf("bookmark: %v %+v %v", typ, o, err)
	}
	status := `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 1 (2)","reason":"Expired","code":410}}`
	ev = wireEvent{}
	if err := json.Unmarshal([]byte(status), &ev); err != nil {
		t.Fatal(err)
	}
	typ, obj, err = c.event(&ev)
	if err != nil || typ != watch.Error || !apierrors.IsResourceExpired(apierrors.FromObject(obj)) {
		t.Fatalf("error event: %v %v %v", typ, obj, err)
	}
}

func TestConvertStatusList(t *testing.T) {
	body := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \"viewer\" cannot list resource \"pods\"","reason":"Forbidden","code":403}`
	_, _, err := decodeList(strings.NewReader(body), newConverter(false, nil))
	if !apierrors.IsForbidden(err) || apierr.Message(err) != `pods is forbidden: User "viewer" cannot list resource "pods"` {
		t.Fatalf("err %v", err)
	}
}

func TestIsAgeColumn(t *testing.T) {
	tests := []struct {
		def  metav1.TableColumnDefinition
		want bool
	}{
		{metav1.TableColumnDefinition{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time"}, true},
		{metav1.TableColumnDefinition{Name: "Age", Type: "date", Description: "Custom resource definition column (in JSONPath format): .metadata.creationTimestamp"}, true},
		{metav1.TableColumnDefinition{Name: "Created", Type: "date", Description: "Custom resource definition column (in JSONPath format): .metadata.creationTimestamp"}, true},
		{metav1.TableColumnDefinition{Name: "Age", Type: "date"}, true},
		{metav1.TableColumnDefinition{Name: "Built", Type: "date", Description: "Custom resource definition column (in JSONPath format): .status.builtAt"}, false},
		{metav1.TableColumnDefinition{Name: "Age", Type: "date", Description: "Custom resource definition column (in JSONPath format): .status.age"}, false},
		{metav1.TableColumnDefinition{Name: "Last Seen", Type: "string", Description: "Time when last seen"}, false},
	}
	for _, tt := range tests {
		if got := isAgeColumn(tt.def); got != tt.want {
			t.Errorf("isAgeColumn(%+v) = %v, want %v", tt.def, got, tt.want)
		}
	}
}

func TestFormatAge(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{45 * time.Second, "45s"},
		{5*time.Minute + 10*time.Second, "5m10s"},
		{3 * time.Hour, "3h"},
		{50 * time.Hour, "2d2h"},
		{400 * 24 * time.Hour, "400d"},
	}
	for _, tt := range tests {
		if got := FormatAge(tt.d); got != tt.want {
			t.Errorf("FormatAge(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestWatchDecoderStream decodes a stream of watch events as the server writes them, up to its end.
func TestWatchDecoderStream(t *testing.T) {
	one := podTable[:strings.Index(podTable, `,
 {"cells":["web-2"`)] + `]}`
	stream := `{"type":"ADDED","object":` + one + "}\n" +
		`{"type":"DELETED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"rows":[{"cells":["web-1","1/1",0,"5m","10.0.0.1"],"object":{"metadata":{"name":"web-1","namespace":"shop","resourceVersion":"150"}}}]}}` + "\n" +
		`{"type":"BOOKMARK","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"rows":[{"cells":null,"object":{"metadata":{"resourceVersion":"160"}}}]}}` + "\n"
	d := &tableWatchDecoder{body: io.NopCloser(strings.NewReader(stream)),
		iter: jsoniter.Parse(jsonAPI, strings.NewReader(stream), 64), conv: newConverter(true, nil)}
	var got []string
	for {
		typ, obj, err := d.Decode()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		o := obj.(*rowObject)
		got = append(got, fmt.Sprintf("%s %s %s %v", typ, o.get().Key, o.get().ResourceVersion, o.get().Cells))
	}
	want := []string{
		"ADDED shop/web-1 101 [shop web-1 1/1 0 5m 10.0.0.1]",
		"DELETED shop/web-1 150 [shop web-1 1/1 0 5m 10.0.0.1]",
		"BOOKMARK  160 []",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events\n%q\nwant\n%q", got, want)
	}
}

// TestConvertPlainWatchEvent: a server without Table support sends whole objects; rows get NAME and AGE.
func TestConvertPlainWatchEvent(t *testing.T) {
	c := newConverter(true, nil)
	var ev wireEvent
	body := `{"type":"MODIFIED","object":{"kind":"Widget","apiVersion":"x/v1","metadata":{"name":"w","namespace":"n",
	"uid":"u9","resourceVersion":"77","creationTimestamp":"2020-01-01T00:00:00Z","labels":{"a":"b"}},"spec":{"size":3}}}`
	if err := json.Unmarshal([]byte(body), &ev); err != nil {
		t.Fatal(err)
	}
	typ, obj, err := c.event(&ev)
	if err != nil || typ != watch.Modified {
		t.Fatalf("%v %v", typ, err)
	}
	r := obj.(*rowObject).get()
	if r.Key != "n/w" || r.ResourceVersion != "77" || r.Labels["a"] != "b" || len(r.Cells) != 3 ||
		r.Cells[0] != "n" || r.Cells[1] != "w" || !strings.HasPrefix(r.Cells[2], "6y") {
		t.Fatalf("row %+v", r)
	}
	var names []string
	for _, col := range c.Columns() {
		names = append(names, col.Name)
	}
	if !reflect.DeepEqual(names, []string{"Namespace", "Name", "Age"}) {
		t.Errorf("columns %v", names)
	}
}

// TestRowsShareEqualLabels: rows with the same labels share one map (a map per row costs hundreds of bytes),
// rows with other labels get their own, and a row without labels has none.
func TestRowsShareEqualLabels(t *testing.T) {
	var ls labelSets
	a := ls.share(map[string]string{"app": "web", "pod-template-hash": "7d9f"})
	b := ls.share(map[string]string{"pod-template-hash": "7d9f", "app": "web"})
	c := ls.share(map[string]string{"app": "api"})
	same := func(x, y map[string]string) bool {
		return reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer()
	}
	if !same(a, b) || same(a, c) || !reflect.DeepEqual(a, map[string]string{"app": "web", "pod-template-hash": "7d9f"}) {
		t.Fatalf("shared %v, distinct %v: %v %v %v", same(a, b), !same(a, c), a, b, c)
	}
	if ls.share(nil) != nil || ls.share(map[string]string{}) != nil {
		t.Fatal("a row without labels got a map")
	}
}
