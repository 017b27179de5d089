package versions

import (
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"
)

// TestMapYAMLLines: each line of an object's YAML (as sigs.k8s.io/yaml prints it) maps to the field it
// shows; list items are keyed as the managers' FieldsV1 key them (k:, v:, i:), by index where none does;
// continuation lines of a long value belong to its field.
func TestMapYAMLLines(t *testing.T) {
	cases := []struct {
		name   string
		object string // JSON
		fields string // FieldsV1 JSON of a manager ("" none)
		want   []string
	}{
		{"nested maps", `{"a":1,"b":{"c":"x","d":{}}}`, "",
			[]string{".a", ".b/", ".b.c", ".b.d"}},
		{"list keyed by name", `{"containers":[{"name":"web","image":"nginx"},{"name":"log","image":"busybox"}]}`,
			`{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{}}}}`,
			[]string{".containers/", `.containers[name="web"].image`, `.containers[name="web"].name`,
				`.containers[name="log"].image`, `.containers[name="log"].name`}},
		{"list keyed by two fields", `{"ports":[{"containerPort":80,"protocol":"TCP"}]}`,
			`{"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}`,
			[]string{".ports/", `.ports[containerPort=80,protocol="TCP"].containerPort`, `.ports[containerPort=80,protocol="TCP"].protocol`}},
		{"set of values", `{"finalizers":["a.example/x","b.example/y"]}`, `{"f:finalizers":{".":{},"v:\"a.example/x\"":{}}}`,
			[]string{".finalizers/", `.finalizers[="a.example/x"]`, `.finalizers[="b.example/y"]`}},
		{"list nobody keys", `{"args":["--a","--b"]}`, "",
			[]string{".args/", ".args[0]", ".args[1]"}},
		{"list of lists", `{"m":[[1,2]]}`, "",
			[]string{".m/", ".m[0][0]", ".m[0][1]"}}, // the line "- - 1" shows the inner item
		{"block string", `{"script":"line one\nline two\n","z":true}`, "",
			[]string{".script", ".script", ".script", ".z"}},
		{"long plain string folded", `{"s":"` + strings.Repeat("word ", 40) + `","t":1}`, "",
			append(append([]string{".s"}, repeat(".s", strings.Count(yamlOf(t, `{"s":"`+strings.Repeat("word ", 40)+`"}`), "\n")-1)...), ".t")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := map[string]any{}
			if err := yaml.Unmarshal([]byte(c.object), &obj); err != nil {
				t.Fatal(err)
			}
			known := &fieldpath.Set{}
			if c.fields != "" {
				if err := known.FromJSON(strings.NewReader(c.fields)); err != nil {
					t.Fatal(err)
				}
			}
			text := yamlOf(t, c.object)
			lines, err := mapYAMLLines(text, obj, known)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range lines {
				s := l.path.String()
				if l.structural {
					s += "/"
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("YAML:\n%s\ngot  %q\nwant %q", text, got, c.want)
			}
		})
	}
}

// yamlOf renders a JSON object as the YAML view does.
func yamlOf(t *testing.T, object string) string {
	t.Helper()
	obj := map[string]any{}
	if err := yaml.Unmarshal([]byte(object), &obj); err != nil {
		t.Fatal(err)
	}
	out, err := yaml.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}
