package columns

import (
	"strings"
	"testing"

	"k8s.io/kubectl/pkg/cmd/get"
)

// TestSpecAsKubectl: the custom-columns SPEC, the template file and the relaxed paths give kubectl's columns
// and kubectl's errors, input by input (kubectl's own parser linked into this test only).
func TestSpecAsKubectl(t *testing.T) {
	specs := []string{
		"", "NAME", "NAME:.metadata.name", "NAME:metadata.name,IMAGE:{.spec.containers[*].image}",
		"A:{a.b},B:.c", "A:", ":.a", "A:.a,B", "NAME:{.metadata.name", "A:b:c", "A:.a,,B:.b", "A:{}",
	}
	for _, spec := range specs {
		want, wantErr := get.NewCustomColumnsPrinterFromSpec(spec, nil, true)
		got, err := parseSpec(spec)
		compare(t, "spec "+spec, got, err, want, wantErr)
	}
	templates := []string{
		"", "NAME\n", "NAME IMAGE\n.metadata.name {.spec.containers[*].image}\n", "NAME\n.a .b\n",
		"  NAME\t IMAGE \n .metadata.name\t\timage\n", "A B\n{x .y\n", "\n\n",
	}
	for _, tmpl := range templates {
		want, wantErr := get.NewCustomColumnsPrinterFromTemplate(strings.NewReader(tmpl), nil)
		got, err := parseTemplate(strings.NewReader(tmpl))
		compare(t, "template "+tmpl, got, err, want, wantErr)
	}
	for _, path := range []string{"", "a", ".a.b", "{a}", "{.a[0].b}", "{a", "a}", "{}", "{{a}}", ".", "{.}"} {
		want, wantErr := get.RelaxedJSONPathExpression(path)
		got, err := relaxedJSONPath(path)
		if got != want || errText(err) != errText(wantErr) {
			t.Errorf("path %q: %q, %v; kubectl: %q, %v", path, got, err, want, wantErr)
		}
	}
}

func compare(t *testing.T, what string, got []column, err error, want *get.CustomColumnsPrinter, wantErr error) {
	t.Helper()
	if errText(err) != errText(wantErr) {
		t.Errorf("%q: error %v; kubectl: %v", what, err, wantErr)
		return
	}
	if wantErr != nil {
		return
	}
	if len(got) != len(want.Columns) {
		t.Errorf("%q: %d columns; kubectl: %d", what, len(got), len(want.Columns))
		return
	}
	for i, c := range want.Columns {
		if got[i].header != c.Header || got[i].fieldSpec != c.FieldSpec {
			t.Errorf("%q: column %d is %+v; kubectl: %+v", what, i, got[i], c)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
