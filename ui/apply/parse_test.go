package apply

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kscope/discovery"
)

// catalog is the resources the tests' documents may name.
var catalog = []discovery.Resource{
	{Version: "v1", Name: "configmaps", Kind: "ConfigMap", Namespaced: true},
	{Version: "v1", Name: "namespaces", Kind: "Namespace"},
	{Group: "apps", Version: "v1", Name: "deployments", Kind: "Deployment", Namespaced: true},
	{Group: "autoscaling", Version: "v2", Name: "horizontalpodautoscalers", Kind: "HorizontalPodAutoscaler", Namespaced: true},
}

const cmA = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n"

func TestItems(t *testing.T) {
	tests := []struct {
		name string
		srcs []Source
		want []string // What and resource version of each item
		err  string
	}{
		{"one yaml document, the view's namespace", []Source{{Data: []byte(cmA)}}, []string{"configmaps shop/a v1"}, ""},
		{"its own namespace kept", []Source{{Data: []byte(strings.Replace(cmA, "name: a", "name: a\n  namespace: data", 1))}},
			[]string{"configmaps data/a v1"}, ""},
		{"documents, empty ones and comments skipped", []Source{{Data: []byte("---\n# a comment\n---\n" + cmA +
			"---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\n")}},
			[]string{"configmaps shop/a v1", "deployments shop/web v1"}, ""},
		{"json stream", []Source{{Data: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}
{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n","namespace":"x"}}`)}},
			[]string{"configmaps shop/a v1", "namespaces n v1"}, ""},
		{"a version the catalog does not prefer", []Source{{Data: []byte("apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\n")}},
			[]string{"horizontalpodautoscalers shop/h v1"}, ""},
		{"third document without a name", []Source{{Name: "f.yaml", Data: []byte(cmA + "---\n" + strings.Replace(cmA, "name: a", "name: b", 1) +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {labels: {a: b}}\n")}}, nil,
			"f.yaml: document 3: ConfigMap without metadata.name"},
		{"does not parse", []Source{{Data: []byte(cmA + "---\nmetadata: [unclosed\n")}}, nil, "document 2: does not parse"},
		{"not an object", []Source{{Data: []byte("- a\n- b\n")}}, nil, "document 1: not an object"},
		{"no apiVersion", []Source{{Data: []byte("kind: ConfigMap\nmetadata: {name: a}\n")}}, nil, "document 1: no apiVersion"},
		{"no kind", []Source{{Data: []byte("apiVersion: v1\nmetadata: {name: a}\n")}}, nil, "document 1: no kind"},
		{"unknown kind", []Source{{Data: []byte("apiVersion: shop.example.com/v1\nkind: Widget\nmetadata: {name: a}\n")}}, nil,
			"document 1: no resource of kind Widget in shop.example.com/v1 is served"},
		{"a name that is a path", []Source{{Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ../secrets/x}\n")}}, nil,
			`document 1: metadata.name "../secrets/x"`},
		{"a namespace that is a path", []Source{{Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ..}\n")}}, nil,
			`document 1: metadata.namespace ".."`},
		{"the same object twice", []Source{{Name: "x.yaml", Data: []byte(cmA)}, {Name: "y.yaml", Data: []byte(cmA)}}, nil,
			"y.yaml: document 1: configmaps shop/a again (x.yaml: document 1)"},
		{"several problems: the first, and how many more", []Source{{Data: []byte("kind: X\n---\nkind: Y\n---\nkind: Z\n")}}, nil,
			"document 1: no apiVersion (and 2 more)"},
		{"bad JSON after a good object", []Source{{Data: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}} {"oops"`)}},
			nil, "document 2: not JSON"},
		{"nothing", []Source{{Data: []byte("# only a comment\n")}}, nil, "no object in it"},
		{"a List's items, between documents", []Source{{Data: []byte(cmA + "---\napiVersion: v1\nkind: List\nitems:\n" +
			"- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n" +
			"- {apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: data}}\n---\n" +
			"apiVersion: v1\nkind: Namespace\nmetadata: {name: ns1}\n")}},
			[]string{"configmaps shop/a v1", "configmaps shop/b v1", "deployments data/web v1", "namespaces ns1 v1"}, ""},
		{"a ConfigMapList in JSON", []Source{{Data: []byte(`{"apiVersion":"v1","kind":"ConfigMapList","metadata":{},"items":[` +
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}},{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}]}`)}},
			[]string{"configmaps shop/a v1", "configmaps shop/b v1"}, ""},
		{"an item of a list without a name", []Source{{Name: "l.yaml", Data: []byte("apiVersion: v1\nkind: List\nitems:\n" +
			"- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {}}\n")}}, nil,
			"l.yaml: document 1, item 2: ConfigMap without metadata.name"},
		{"an item that is not an object", []Source{{Data: []byte("apiVersion: v1\nkind: List\nitems: [a]\n")}}, nil,
			"document 1, item 1: not an object"},
		{"a list in a list", []Source{{Data: []byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: List, items: []}\n")}}, nil,
			"document 1, item 1: a list in a list"},
		{"an object twice, once in a list", []Source{{Data: []byte(cmA + "---\napiVersion: v1\nkind: List\nitems:\n" +
			"- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n")}}, nil,
			"document 2, item 1: configmaps shop/a again (document 1)"},
		{"an empty list only", []Source{{Data: []byte("apiVersion: v1\nkind: List\nitems: []\n")}}, nil, "no object in it"},
		{"items in a kind that is not a list", []Source{{Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nitems: []\n")}},
			[]string{"configmaps shop/a v1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := Items(tt.srcs, catalog, "shop")
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("error %v, want one beginning %q", err, tt.err)
				}
				if items != nil {
					t.Errorf("items %v besides the error", items)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range items {
				got = append(got, it.What()+" "+it.GVR.Version)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("items %q, want %q", got, tt.want)
			}
		})
	}
}

func TestReadPath(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"b.yml": "b", "a.yaml": "a", "c.JSON": "c", "notes.txt": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "sub.yaml"), 0o700); err != nil { // a folder: not read
		t.Fatal(err)
	}
	srcs, err := ReadPath(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range srcs {
		got = append(got, s.Name+"="+string(s.Data))
	}
	if want := []string{"a.yaml=a", "b.yml=b", "c.JSON=c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ReadPath(context.Background(), dir) = %q, want %q", got, want)
	}
	one := filepath.Join(dir, "a.yaml")
	if srcs, err := ReadPath(context.Background(), one); err != nil || len(srcs) != 1 || srcs[0].Name != one {
		t.Errorf("ReadPath(file) = %v, %v", srcs, err)
	}
	if _, err := ReadPath(context.Background(), filepath.Join(dir, "missing.yaml")); err == nil {
		t.Error("a missing file read")
	}
	if _, err := ReadPath(context.Background(), t.TempDir()); err == nil || !strings.Contains(err.Error(), "no .yaml, .yml or .json file") {
		t.Errorf("an empty folder: %v", err)
	}
}

func TestHomePath(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	for in, want := range map[string]string{
		"~/x.yaml": "/home/u/x.yaml", "~": "/home/u", "~/": "/home/u/", "~bob/x": "~bob/x",
		"a/~/b": "a/~/b", "x.yaml": "x.yaml", "/tmp/~x": "/tmp/~x",
	} {
		if got := homePath(in); got != want {
			t.Errorf("homePath(%q) = %q, want %q", in, got, want)
		}
	}
}
