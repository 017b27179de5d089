package columns

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/config"
)

func headers(t *testing.T, value string) ([]string, error) {
	t.Helper()
	cols, err := FromOutput(value)
	var out []string
	for _, c := range cols {
		out = append(out, c.Column.Name)
	}
	return out, err
}

// TestFromOutput: -o values are parsed as kubectl parses them, with kubectl's errors.
func TestFromOutput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cols.txt")
	if err := os.WriteFile(file, []byte("NAME   IMAGE\n.metadata.name   {.spec.containers[*].image}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("NAME IMAGE\n.metadata.name\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		value, want, err string
	}{
		{value: "custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[*].image", want: "NAME IMAGE"},
		{value: "custom-columns=N:metadata.name,R:{.status.phase},X:{metadata.uid}", want: "N R X"},
		{value: "custom-columns-file=" + file, want: "NAME IMAGE"},
		{value: "custom-columns=", err: "custom-columns format specified but no custom columns given"},
		{value: "custom-columns=NAME", err: "unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>"},
		{value: "custom-columns=NAME:{.metadata.name", err: "unexpected path string"},
		{value: "custom-columns=X:.spec.containers[", err: "column X"},
		{value: "custom-columns-file=" + bad, err: "number of headers (2) and field specifications (1) don't match"},
		{value: "custom-columns-file=/nonexistent/cols", err: "no such file"},
		{value: "yaml", err: `unsupported output format "yaml"`},
		{value: "", err: "unsupported output format"},
	} {
		got, err := headers(t, tc.value)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one with %q", tc.value, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.value, err)
		case tc.err == "" && strings.Join(got, " ") != tc.want:
			t.Errorf("%q: headers %q, want %q", tc.value, got, tc.want)
		}
	}
}

// TestParseViewColumn: k9s's column definitions.
func TestParseViewColumn(t *testing.T) {
	for _, tc := range []struct {
		def  string
		want ViewColumn
		err  bool
	}{
		{def: "NAME", want: ViewColumn{Name: "NAME"}},
		{def: "NAMESPACE|WR", want: ViewColumn{Name: "NAMESPACE", Wide: true}},
		{def: "MEM/RL|S", want: ViewColumn{Name: "MEM/RL"}},
		{def: "%MEM/R|", want: ViewColumn{Name: "%MEM/R"}},
		{def: "IMAGE:.spec.containers[*].image", want: ViewColumn{Name: "IMAGE", Expr: "{.spec.containers[*].image}"}},
		{def: `ZORG:.metadata.labels.fred\.io|N`, want: ViewColumn{Name: "ZORG", Expr: `{.metadata.labels.fred\.io}`, Number: true}},
		{def: "BORN:.metadata.creationTimestamp|T", want: ViewColumn{Name: "BORN", Expr: "{.metadata.creationTimestamp}", Time: true}},
		{def: "SECRET|H", want: ViewColumn{Name: "SECRET", Hide: true}},
		{def: "", err: true},
		{def: "X:{.a", err: true},
	} {
		got, err := ParseViewColumn(tc.def)
		if tc.err {
			if err == nil {
				t.Errorf("%q: %+v, want an error", tc.def, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v %v, want %+v", tc.def, got, err, tc.want)
		}
	}
}

// TestViews: entries are found by resource, a namespace's own entry first; bad entries are errors naming them.
func TestViews(t *testing.T) {
	pods := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	deploys := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	vs, err := NewViews([]config.ViewSetting{
		{Key: "v1/pods", Columns: []string{"NAME", "STATUS"}, SortColumn: "AGE:desc"},
		{Key: "v1/pods@kube.*", Columns: []string{"NAME", "IMAGE:.spec.containers[*].image"}},
		{Key: "apps/v1/deployments", Columns: []string{"NAME", "READY"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := vs.Lookup(pods, "shop"); !ok || v.Computed() || v.SortColumn != "AGE" || !v.Descending {
		t.Errorf("pods in shop: %+v %v", v, ok)
	}
	if v, ok := vs.Lookup(pods, "kube-system"); !ok || !v.Computed() {
		t.Errorf("pods in kube-system: %+v %v", v, ok)
	}
	if _, ok := vs.Lookup(deploys, ""); !ok {
		t.Error("no deployments entry")
	}
	if _, ok := vs.Lookup(schema.GroupVersionResource{Version: "v1", Resource: "services"}, ""); ok {
		t.Error("an entry for services")
	}
	for _, bad := range []config.ViewSetting{
		{Key: "v1/pods", Columns: []string{"X:.a["}},
		{Key: "v1/pods", Columns: []string{"NAME"}, SortColumn: "AGE"},
		{Key: "v1/pods", Columns: []string{"NAME"}, SortColumn: "AGE:up"},
		{Key: "v1/pods@[", Columns: []string{"NAME"}},
	} {
		if _, err := NewViews([]config.ViewSetting{bad}); err == nil || !strings.Contains(err.Error(), bad.Key) {
			t.Errorf("%+v: %v, want an error naming the entry", bad, err)
		}
	}
}

// TestObjectColumnsOfView: a computed view's server names become metadata columns, or n/a.
func TestObjectColumnsOfView(t *testing.T) {
	v, err := NewView([]string{"NAME", "AGE", "IMAGE:.spec.containers[*].image|W", "LABELS", "STATUS", "X|H"}, "")
	if err != nil {
		t.Fatal(err)
	}
	cols, unknown, err := v.ObjectColumns()
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{"metadata": map[string]any{"name": "web", "labels": map[string]any{"b": "2", "a": "1"}},
		"spec": map[string]any{"containers": []any{map[string]any{"image": "nginx"}}}}
	var got []string
	for _, c := range cols {
		got = append(got, c.Column.Name+"="+c.Cell(obj))
	}
	if want := "NAME=web AGE= IMAGE=nginx LABELS=a=1,b=2 STATUS=n/a"; strings.Join(got, " ") != want {
		t.Errorf("cells %q, want %q", strings.Join(got, " "), want)
	}
	if !cols[1].Column.Age || cols[2].Column.Priority != 1 || strings.Join(unknown, ",") != "STATUS" {
		t.Errorf("age %v, wide %d, unknown %v", cols[1].Column.Age, cols[2].Column.Priority, unknown)
	}
}
