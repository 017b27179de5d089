package history

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// t0 is the tests' clock's start.
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func TestLastWriter(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	entry := func(manager, op string, s int, raw string) FieldOwner {
		o := FieldOwner{Manager: manager, Operation: op, Time: at(s), raw: raw, Fields: &fieldpath.Set{}}
		if err := o.Fields.FromJSON(strings.NewReader(raw)); err != nil {
			t.Fatalf("fields %s: %v", raw, err)
		}
		return o
	}
	created := entry("kubectl-create", "Update", 1, `{"f:data":{".":{},"f:a":{}}}`)
	a1 := entry("a", "Apply", 1, `{"f:spec":{}}`)
	b2 := entry("b", "Apply", 2, `{"f:data":{}}`)
	patch3 := entry("kubectl-patch", "Update", 3, `{"f:spec":{"f:replicas":{}}}`)
	cases := []struct {
		name      string
		prev, cur []FieldOwner
		first     bool
		want      string
		sure      bool
	}{
		{"first version: the newest entry", nil, []FieldOwner{a1, b2}, true, "b", true},
		{"first version, two as new", nil, []FieldOwner{a1, entry("c", "Update", 1, "{}")}, true, "a", false},
		{"a new entry", []FieldOwner{a1, b2}, []FieldOwner{a1, b2, patch3}, false, "kubectl-patch", true},
		{"an entry whose time changed", []FieldOwner{a1, b2}, []FieldOwner{entry("a", "Apply", 5, a1.raw), b2}, false, "a", true},
		{"an entry whose fields changed in the same second", []FieldOwner{a1, b2}, []FieldOwner{a1, entry("b", "Apply", 2, `{"f:x":{}}`)}, false, "b", true},
		{"two changed: the newest", []FieldOwner{a1}, []FieldOwner{entry("a", "Apply", 4, a1.raw), b2}, false, "a", true},
		{"none changed (same second): the newest, unsure", []FieldOwner{a1, patch3}, []FieldOwner{a1, patch3}, false, "kubectl-patch", false},
		{"a field taken in the same second: the taker, not the one that gave it up", []FieldOwner{created},
			[]FieldOwner{entry("kubectl-create", "Update", 1, `{"f:data":{".":{}}}`),
				entry("kubectl-patch", "Update", 1, `{"f:data":{"f:a":{}}}`)}, false, "kubectl-patch", true},
		{"only a loss seen (the write's entry unchanged): the one that lost", []FieldOwner{created, patch3},
			[]FieldOwner{entry("kubectl-create", "Update", 1, `{"f:data":{".":{}}}`), patch3}, false, "kubectl-create", true},
		{"same manager, other operation", []FieldOwner{a1}, []FieldOwner{a1, entry("a", "Update", 1, "{}")}, false, "a", true},
	}
	for _, c := range cases {
		w, sure, ok := LastWriter(c.prev, c.cur, c.first)
		if !ok || w.Manager != c.want || sure != c.sure {
			t.Errorf("%s: %s (sure %v, ok %v), want %s (sure %v)", c.name, w.Manager, sure, ok, c.want, c.sure)
		}
	}
	if _, _, ok := LastWriter(nil, nil, true); ok {
		t.Error("a writer found without managedFields")
	}
}

func TestChangedPaths(t *testing.T) {
	obj := func(s string) map[string]any { return yamlObject(t, s) }
	cases := []struct {
		name string
		a, b string
		want string
	}{
		{"nothing", `{"a":1}`, `{"a":1}`, ""},
		{"resourceVersion and managedFields left out", `{"metadata":{"resourceVersion":"1","managedFields":[1]}}`,
			`{"metadata":{"resourceVersion":"2","managedFields":[2]}}`, ""},
		{"a value", `{"spec":{"replicas":1}}`, `{"spec":{"replicas":2}}`, "spec.replicas"},
		{"added and removed", `{"metadata":{"labels":{"old":"x"}}}`, `{"metadata":{"labels":{"new":"y"}}}`,
			"+metadata.labels.new -metadata.labels.old"},
		{"items by name", `{"c":[{"name":"web","image":"a"},{"name":"log","image":"b"}]}`,
			`{"c":[{"name":"log","image":"b"},{"name":"web","image":"c"}]}`, "c[name=web].image"},
		{"items by index", `{"args":["a","b"]}`, `{"args":["a","c"]}`, "args[1]"},
		{"a list that grew", `{"args":["a"]}`, `{"args":["a","b"]}`, "args"},
	}
	for _, c := range cases {
		if got := strings.Join(ChangedPaths(obj(c.a), obj(c.b)), " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	paths := []string{"spec.replicas", "+metadata.labels.a", "spec.template.spec.containers[name=web].image"}
	cases := []struct {
		width int
		want  string
	}{
		{200, "spec.replicas, +metadata.labels.a, spec.template.spec.containers[name=web].image"},
		{45, "spec.replicas, +metadata.labels.a +1 more"},
		{10, "spec.replicas +2 more"},
	}
	for _, c := range cases {
		if got := Summarize(paths, c.width); got != c.want {
			t.Errorf("width %d: %q, want %q", c.width, got, c.want)
		}
	}
}

// yamlObject parses a JSON object.
func yamlObject(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
