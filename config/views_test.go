package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestViewsK9sFile: k9s's views.yaml is read as k9s writes it (kscope's own file first); a broken one, or an
// entry without columns, is one problem naming the file.
func TestViewsK9sFile(t *testing.T) {
	root := t.TempDir()
	d := Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s")}
	write(t, d.K9s, "views.yaml", `views:
  v1/pods:
    columns:
      - AGE
      - NAMESPACE|WR
      - ZORG:.metadata.labels.fred\.io\.kubernetes\.blee
      - '%MEM/R|'
    sortColumn: AGE:desc
  apps/v1/deployments@kube*:
    columns: [NAME]
`)
	v, f, err := LoadViews(d)
	want := []ViewSetting{
		{Key: "apps/v1/deployments@kube*", Columns: []string{"NAME"}},
		{Key: "v1/pods", Columns: []string{"AGE", "NAMESPACE|WR", `ZORG:.metadata.labels.fred\.io\.kubernetes\.blee`, "%MEM/R|"},
			SortColumn: "AGE:desc"},
	}
	if err != nil || f.From != "k9s" || !reflect.DeepEqual(v, want) {
		t.Fatalf("k9s's file: %+v %+v %v, want %+v", v, f, err, want)
	}
	for _, tc := range []struct{ text, want string }{
		{"views:\n  v1/pods:\n    columns: [NAME\n", "line 3:"},
		{"views:\n  v1/pods:\n    sortColumn: AGE:asc\n", `view "v1/pods" needs a resource and columns`},
	} {
		write(t, d.KScope, "views.yaml", tc.text)
		_, _, err := LoadViews(d)
		if p, ok := err.(Problem); !ok || p.Path != filepath.Join(d.KScope, "views.yaml") || !strings.Contains(p.Text, tc.want) ||
			strings.Contains(p.Text, "\n") {
			t.Errorf("%q: %v, want a problem with %q", tc.text, err, tc.want)
		}
	}
}
