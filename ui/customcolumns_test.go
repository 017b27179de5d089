package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/cluster"
	"kscope/columns"
	"kscope/config"
	"kscope/ui/livetable"
	"kscope/watch"
)

// addPod puts a second pod, with two containers and a node, among the cluster's objects.
func addPod(h *harness) {
	pod := podObject()
	pod.SetName("api-5c4b-zzzzz")
	pod.SetUID("uid-api")
	_ = unstructured.SetNestedSlice(pod.Object, []any{map[string]any{"name": "api", "image": "api:2"},
		map[string]any{"name": "proxy", "image": "envoy:1.30"}}, "spec", "containers")
	_ = unstructured.SetNestedField(pod.Object, "kwok-node-1", "spec", "nodeName")
	h.cluster.mu.Lock()
	h.cluster.objects["pods/shop/api-5c4b-zzzzz"] = pod
	h.cluster.mu.Unlock()
}

// TestCustomColumnsCommand: `:pods -o custom-columns=…` shows the columns computed from the objects (several
// results joined by ",", <none> for a missing field), follows changes, and filters and sorts as any table.
func TestCustomColumnsCommand(t *testing.T) {
	h := start(t, 120, 20, nil)
	addPod(h)
	h.command("pods -o custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[*].image,NODE:.spec.nodeName")
	h.eventually("api:2,envoy:1.30")
	h.contains("IMAGE")
	h.contains("NODE")
	h.contains("kwok-node-1")
	h.contains("<none>") // web's nodeName
	h.lacks("READY")     // not the server's columns
	var src cluster.RowSource
	h.quietly(func() { src = h.app.top().(*livetable.Table).Source() })
	if _, ok := src.(*watch.ObjectSource); !ok {
		t.Fatalf("source %T, want an ObjectSource", src)
	}

	pod, err := h.cluster.objectsClient().Resource(podsGVR).Namespace("shop").Get(context.Background(), "web-7d9f-abcde", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_ = unstructured.SetNestedSlice(pod.Object, []any{map[string]any{"name": "web", "image": "nginx:1.28"}}, "spec", "containers")
	pod.SetResourceVersion("9")
	if _, err := h.cluster.objectsClient().Resource(podsGVR).Namespace("shop").Update(context.Background(), pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.eventually("nginx:1.28")

	h.typeText("/envoy\n")
	h.eventually("</envoy>")
	h.until("one row", func() bool { return len(h.app.top().(*livetable.Table).Rows()) == 1 })
	h.lacks("nginx:1.28")
	h.press(tcell.KeyEscape, 0)
	h.until("both rows", func() bool { return len(h.app.top().(*livetable.Table).Rows()) == 2 })

	h.typeText("N") // sort by NAME; again: reverse
	h.until("sorted by NAME", func() bool { return firstRowName(h) == "api-5c4b-zzzzz" })
	h.typeText("N")
	h.until("sorted by NAME, reversed", func() bool { return firstRowName(h) == "web-7d9f-abcde" })
	h.typeText("y") // the object keys work on the rows as on any table's
	h.eventually("kind: Pod")
}

// TestCustomColumnsBadSpec: a bad spec or format is one line, and the table shown stays.
func TestCustomColumnsBadSpec(t *testing.T) {
	h := start(t, 120, 20, nil)
	h.command("pods")
	var before Screen
	h.quietly(func() { before = h.app.top() })
	for _, tc := range []struct{ line, says string }{
		{"pods -o custom-columns=NAME", "unexpected custom-columns spec: NAME"},
		{"pods -o custom-columns=X:.spec.containers[", "column X"},
		{"pods -o yaml", `unsupported output format "yaml"`},
		{"pods -o", "unsupported output format"},
	} {
		h.command(tc.line)
		h.eventually(tc.says)
		var same bool
		h.quietly(func() { same = h.app.top() == before })
		if !same {
			t.Errorf("%s: the table changed", tc.line)
		}
		if msg := h.app.bar.ShownMessage(); strings.Contains(msg, "\n") {
			t.Errorf("%s: %q is more than one line", tc.line, msg)
		}
	}
}

// TestCustomColumnsAtStart: Options.Columns (kscope pods -o custom-columns=…) opens the start resource with them.
func TestCustomColumnsAtStart(t *testing.T) {
	cols, err := columns.FromSpec("POD:.metadata.name,IMG:.spec.containers[0].image")
	if err != nil {
		t.Fatal(err)
	}
	h := start(t, 120, 20, func(o *Options) { o.Resource, o.Columns = "pods", cols })
	h.eventually("nginx:1.27")
	h.contains("IMG")
	h.lacks("STATUS")
}

// TestViewsServerColumns: a views.yaml entry naming server columns only orders the Table source's columns,
// shows the others in wide mode after them, and sorts as sortColumn says.
func TestViewsServerColumns(t *testing.T) {
	views := mustViews(t, config.ViewSetting{Key: "v1/pods", Columns: []string{"STATUS", "NAME", "IP|W"}, SortColumn: "NAME:desc"})
	h := start(t, 140, 20, func(o *Options) { o.Views = views })
	h.command("pods")
	h.eventually("web-7d9f-fghij")
	var src cluster.RowSource
	h.quietly(func() { src = h.app.top().(*livetable.Table).Source() })
	if _, ok := src.(*watch.StaticSource); !ok {
		t.Fatalf("source %T, want the Table source", src)
	}
	header := headerLine(h)
	if !strings.Contains(header, "STATUS") || strings.Index(header, "STATUS") > strings.Index(header, "NAME") ||
		strings.Contains(header, "READY") || strings.Contains(header, "IP") {
		t.Errorf("header %q, want STATUS then NAME only", header)
	}
	h.until("sorted by NAME descending", func() bool { return firstRowName(h) == "web-7d9f-fghij" })
	h.typeText("w")
	h.eventually("READY")
	if hd := headerLine(h); !strings.Contains(hd, "IP") || strings.Index(hd, "IP") > strings.Index(hd, "READY") {
		t.Errorf("wide header %q, want IP (named) before READY (the rest)", hd)
	}
}

// TestViewsJSONPathColumns: an entry with JSONPath columns opens an object source with them.
func TestViewsJSONPathColumns(t *testing.T) {
	views := mustViews(t, config.ViewSetting{Key: "v1/pods", Columns: []string{"NAME", "IMAGE:.spec.containers[*].image", "STATUS"}})
	h := start(t, 140, 20, func(o *Options) { o.Views = views })
	addPod(h)
	h.command("pods")
	h.eventually("api:2,envoy:1.30")
	h.contains("n/a") // STATUS: the server's, not computed from the objects
	h.eventually("n/a for STATUS")
}

func mustViews(t *testing.T, settings ...config.ViewSetting) columns.Views {
	t.Helper()
	v, err := columns.NewViews(settings)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// headerLine is the table's header row as drawn; not on the UI goroutine.
func headerLine(h *harness) string {
	for _, line := range strings.Split(h.text(), "\n") {
		if strings.Contains(line, "NAME") {
			return line
		}
	}
	return ""
}

// firstRowName is the name of the table's first row ("" for none); call it on the UI goroutine.
func firstRowName(h *harness) string {
	rows := h.app.top().(*livetable.Table).Rows()
	if len(rows) == 0 {
		return ""
	}
	return rows[0].Name
}
