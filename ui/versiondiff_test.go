package ui

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/watch"
)

func TestLastWriter(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	entry := func(manager, op string, s int, raw string) fieldOwner {
		return fieldOwner{manager: manager, operation: op, time: at(s), raw: raw}
	}
	a1 := entry("a", "Apply", 1, `{"f:spec":{}}`)
	b2 := entry("b", "Apply", 2, `{"f:data":{}}`)
	patch3 := entry("kubectl-patch", "Update", 3, `{"f:spec":{"f:replicas":{}}}`)
	cases := []struct {
		name      string
		prev, cur []fieldOwner
		first     bool
		want      string
		sure      bool
	}{
		{"first version: the newest entry", nil, []fieldOwner{a1, b2}, true, "b", true},
		{"first version, two as new", nil, []fieldOwner{a1, entry("c", "Update", 1, "{}")}, true, "a", false},
		{"a new entry", []fieldOwner{a1, b2}, []fieldOwner{a1, b2, patch3}, false, "kubectl-patch", true},
		{"an entry whose time changed", []fieldOwner{a1, b2}, []fieldOwner{entry("a", "Apply", 5, a1.raw), b2}, false, "a", true},
		{"an entry whose fields changed in the same second", []fieldOwner{a1, b2}, []fieldOwner{a1, entry("b", "Apply", 2, `{"f:x":{}}`)}, false, "b", true},
		{"two changed: the newest", []fieldOwner{a1}, []fieldOwner{entry("a", "Apply", 4, a1.raw), b2}, false, "a", true},
		{"none changed (same second): the newest, unsure", []fieldOwner{a1, patch3}, []fieldOwner{a1, patch3}, false, "kubectl-patch", false},
		{"same manager, other operation", []fieldOwner{a1}, []fieldOwner{a1, entry("a", "Update", 1, "{}")}, false, "a", true},
	}
	for _, c := range cases {
		w, sure, ok := lastWriter(c.prev, c.cur, c.first)
		if !ok || w.manager != c.want || sure != c.sure {
			t.Errorf("%s: %s (sure %v, ok %v), want %s (sure %v)", c.name, w.manager, sure, ok, c.want, c.sure)
		}
	}
	if _, _, ok := lastWriter(nil, nil, true); ok {
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
		if got := strings.Join(changedPaths(obj(c.a), obj(c.b)), " "); got != c.want {
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
		if got := summarize(paths, c.width); got != c.want {
			t.Errorf("width %d: %q, want %q", c.width, got, c.want)
		}
	}
}

// TestObjectBookBounds: 1000 versions of one object keep the newest 50; versions of many objects stay
// within the size bound, the oldest dropped first; a version read again (reconnect) is not kept twice.
func TestObjectBookBounds(t *testing.T) {
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	version := func(name string, rv int, data string) watch.ObjectEvent {
		o := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": "shop", "resourceVersion": fmt.Sprint(rv)},
			"data":     map[string]any{"v": data}}}
		return watch.ObjectEvent{Object: o}
	}
	b := newObjectBook()
	for i := 1; i <= 1000; i++ {
		b.record(gvr, version("one", i, fmt.Sprint(i)), t0.Add(time.Duration(i)*time.Second))
	}
	b.record(gvr, version("one", 1000, "1000"), t0)
	vs := b.versions(gvr, "shop", "one")
	if len(vs) != objectVersionsPerObject || vs[0].obj.GetResourceVersion() != "951" || vs[49].obj.GetResourceVersion() != "1000" {
		t.Fatalf("kept %d versions, %s…%s", len(vs), vs[0].obj.GetResourceVersion(), vs[len(vs)-1].obj.GetResourceVersion())
	}
	if n, _ := b.stats(); n != 50 {
		t.Errorf("versions in all = %d", n)
	}
	b.mu.Lock()
	order := len(b.order)
	b.mu.Unlock()
	if order > 2*50+64 {
		t.Errorf("arrival order holds %d entries for 50 versions", order)
	}

	b = newObjectBook()
	b.maxBytes = 100 * (approxSize(version("x", 1, strings.Repeat("d", 1000)).Object.Object) + versionOverhead)
	for i := 1; i <= 1000; i++ {
		b.record(gvr, version(fmt.Sprint("cm-", i%30), i, strings.Repeat("d", 1000)), t0)
	}
	n, size := b.stats()
	if size > b.maxBytes || n < 90 || n > 100 {
		t.Errorf("%d versions of %d bytes kept, bound %d", n, size, b.maxBytes)
	}
	for i := 0; i < 30; i++ {
		for _, v := range b.versions(gvr, "shop", fmt.Sprint("cm-", i)) {
			if rv, _ := strconv.Atoi(v.obj.GetResourceVersion()); rv <= 1000-n {
				t.Fatalf("version %d kept, older than the newest %d", rv, n)
			}
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
