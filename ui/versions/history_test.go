package versions

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/history"
	"kscope/ui/navtest"
	"kscope/watch"
)

var (
	t0             = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	deployColumns  = []watch.Column{{Name: "NAME", Type: "string", Format: "name"}, {Name: "READY", Type: "string"},
		{Name: "UP-TO-DATE", Type: "integer"}, {Name: "AVAILABLE", Type: "integer"}, {Name: "AGE", Type: "date", Age: true},
		{Name: "IMAGES", Type: "string", Priority: 1}}
	podColumns = []watch.Column{{Name: "NAME", Type: "string", Format: "name"}, {Name: "READY", Type: "string"},
		{Name: "STATUS", Type: "string"}, {Name: "RESTARTS", Type: "integer"}, {Name: "AGE", Type: "date", Age: true},
		{Name: "IP", Type: "string", Priority: 1}, {Name: "NODE", Type: "string", Priority: 1}}
)

// deploymentVersion is the deployment shop/web at resourceVersion rv with replicas and image, its
// managedFields the entries given (manager, operation, seconds after t0).
func deploymentVersion(rv string, replicas int64, image string, entries ...any) *unstructured.Unstructured {
	o := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "uid": "uid-web", "resourceVersion": "5",
			"labels": map[string]any{"app": "web"}},
		"spec":   map[string]any{"replicas": int64(2)},
		"status": map[string]any{"replicas": int64(2)},
	}}
	_ = unstructured.SetNestedField(o.Object, rv, "metadata", "resourceVersion")
	_ = unstructured.SetNestedField(o.Object, replicas, "spec", "replicas")
	_ = unstructured.SetNestedSlice(o.Object, []any{map[string]any{"name": "web", "image": image}},
		"spec", "template", "spec", "containers")
	var mf []any
	for i := 0; i+2 < len(entries); i += 3 {
		mf = append(mf, map[string]any{"manager": entries[i], "operation": entries[i+1], "apiVersion": "apps/v1",
			"time":       t0.Add(time.Duration(entries[i+2].(int)) * time.Second).Format(time.RFC3339),
			"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:spec": map[string]any{}}})
	}
	o.Object["metadata"].(map[string]any)["managedFields"] = mf
	return o
}

// tableRow is a row of a table as its source lists it (no resourceVersion).
func tableRow(ns, name string, cells ...string) *watch.Row {
	return &watch.Row{Key: ns + "/" + name, Namespace: ns, Name: name, Cells: append([]string{name}, cells...)}
}

// entriesOf is what the app hands the history screen: the book's versions of row's object merged with src's
// versions of the row (history.Entries), read at each call.
func entriesOf(book *history.Book, gvr schema.GroupVersionResource, src *watch.StaticSource, row *watch.Row) func() []history.Entry {
	return func() []history.Entry {
		return history.Entries(book.Versions(gvr, row.Namespace, row.Name), src.Versions(row.Key), src.Columns())
	}
}

// tableText returns the history's rows below the header, a cell's text each.
func tableText(v *HistoryView) [][]string {
	var out [][]string
	for r := 1; r < v.table.GetRowCount(); r++ {
		var row []string
		for c := range v.table.GetColumnCount() {
			if cell := v.table.GetCell(r, c); cell != nil {
				row = append(row, cell.Text)
			}
		}
		out = append(out, row)
	}
	return out
}

func key(k tcell.Key) *tcell.EventKey { return tcell.NewEventKey(k, 0, tcell.ModNone) }

// TestHistoryOfYAML: the full versions a YAML view's watch recorded are listed with the manager that made
// each (the managedFields entry that changed) and the fields that changed, newest first, with the row as its
// table listed it; the view reads them again on its tick, keeping the cursor on its version; Enter shows the
// YAML diff to the version before.
func TestHistoryOfYAML(t *testing.T) {
	nav := navtest.New(t, nil)
	book := history.NewBook()
	seen := t0
	record := func(o *unstructured.Unstructured) {
		seen = seen.Add(time.Second)
		book.Record(deploymentsGVR, watch.ObjectEvent{Object: o}, seen)
	}
	row := tableRow("shop", "web", "2/2", "2", "2", "<age>", "nginx:1.27")
	src := watch.NewStaticSource(watch.Spec{}, deployColumns, row)
	record(deploymentVersion("5", 2, "nginx:1", "kubectl", "Apply", 0))
	record(deploymentVersion("6", 3, "nginx:1", "kubectl", "Apply", 0, "kubectl-patch", "Update", 10))
	// The table sees the same change as a row: the full version stands for it. (The row it replaced, as the
	// table listed it, has no resourceVersion: it stays, as the version the table listed.)
	changed := *row
	changed.ResourceVersion, changed.Cells = "6", append([]string{}, row.Cells...)
	changed.Cells[1] = "3/3"
	src.Put(&changed)
	if len(src.Versions("shop/web")) != 2 {
		t.Fatalf("the table kept %d versions of the row", len(src.Versions("shop/web")))
	}
	record(deploymentVersion("7", 3, "nginx:2", "kubectl", "Apply", 0, "kubectl-patch", "Update", 10, "deployer", "Update", 20))
	record(deploymentVersion("8", 4, "nginx:2", "kubectl", "Apply", 0, "kubectl-patch", "Update", 30, "deployer", "Update", 20))

	v := NewHistory(nav, row, entriesOf(book, deploymentsGVR, src, row)).(*HistoryView)
	nav.UI(func() { nav.Push(v) })
	if title := v.table.GetTitle(); !strings.Contains(title, "history[white] shop/web [5]") {
		t.Errorf("title %q", title)
	}
	if tick := nav.Ticking(); len(tick) != 1 || tick[0] != v {
		t.Errorf("ticking %v, want the view", tick)
	}
	rows := tableText(v)
	var all []string
	for _, r := range rows {
		all = append(all, strings.Join(r, " "))
	}
	text := strings.Join(all, "\n") + "\n" + v.Status()
	for _, want := range []string{"kubectl-patch", "deployer", "first version seen", "spec.replicas",
		"spec.template.spec.containers[name=web].image", "kept: 50 per object"} {
		if !strings.Contains(text, want) {
			t.Errorf("history lacks %q:\n%s", want, text)
		}
	}
	wantRows := [][]string{{"8", "kubectl-patch", "Update", "spec.replicas"},
		{"7", "deployer", "Update", "spec.template.spec.containers[name=web].image"},
		{"6", "kubectl-patch", "Update", "spec.replicas"}, {"5", "kubectl", "Apply", "first version seen"},
		{"—", "—", "—", "as the table listed it"}}
	if len(rows) != len(wantRows) {
		t.Fatalf("history rows = %q", rows)
	}
	for i, w := range wantRows {
		if len(rows[i]) != 5 || strings.Join(rows[i][1:4], " ") != strings.Join(w[:3], " ") || !strings.Contains(rows[i][4], w[3]) {
			t.Errorf("row %d = %q, want %q", i, rows[i], w)
		}
		if when := rows[i][0]; when != "listed" && strings.Count(when, ":") != 2 {
			t.Errorf("row %d's time %q", i, when)
		}
	}

	// The view reads the versions again every tick while it is shown.
	record(deploymentVersion("9", 5, "nginx:2", "kubectl", "Apply", 0, "kubectl-patch", "Update", 40, "deployer", "Update", 20))
	nav.UI(v.reload)
	if title := v.table.GetTitle(); !strings.Contains(title, "shop/web [6]") {
		t.Errorf("title after a tick %q", title)
	}
	nav.Press(v, key(tcell.KeyDown)) // the cursor stayed on version 8: down to 7
	if !nav.Press(v, key(tcell.KeyEnter)) {
		t.Fatal("enter is not the history's")
	}
	pushed := nav.Pushed()
	d, ok := pushed[len(pushed)-1].(*DiffView)
	if !ok {
		t.Fatalf("enter pushed %T", pushed[len(pushed)-1])
	}
	if title := d.text.GetTitle(); !strings.Contains(title, "diff[white] shop/web  6 → 7  deployer (Update)") {
		t.Errorf("diff title %q", title)
	}
	diff := d.text.GetText(true)
	for _, want := range []string{"-       - image: nginx:1", "+       - image: nginx:2",
		"⋯ 4 unchanged lines"} { // apiVersion … labels: more than 3 lines from a change
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
	if strings.Contains(diff, "kind: Deployment") {
		t.Errorf("diff shows a line far from any change:\n%s", diff)
	}
	markup := d.text.GetText(false)
	for _, want := range []string{"[green]+       - image: nginx:2[-]", "[red]-       - image: nginx:1[-]"} {
		if !strings.Contains(markup, want) {
			t.Errorf("diff markup lacks %q:\n%s", want, markup)
		}
	}
}

// TestHistoryOfRow: the history of a row never opened in YAML shows the cells its table's versions changed,
// and the diff shows them.
func TestHistoryOfRow(t *testing.T) {
	nav := navtest.New(t, nil)
	base := tableRow("shop", "api-5c4b-zzzzz", "0/1", "Pending", "0", "<age>", "<none>", "<none>")
	src := watch.NewStaticSource(watch.Spec{}, podColumns, base)
	next := *base
	next.ResourceVersion = "41"
	next.Cells = append([]string(nil), base.Cells...)
	next.Cells[2] = "Running"
	next.Cells[1] = "1/1"
	src.Put(&next)
	podsGVR := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	v := NewHistory(nav, base, entriesOf(history.NewBook(), podsGVR, src, base)).(*HistoryView)
	nav.UI(func() { nav.Push(v) })
	if title := v.table.GetTitle(); !strings.Contains(title, "history[white] shop/api-5c4b-zzzzz [2]") {
		t.Errorf("title %q", title)
	}
	var all []string
	for _, r := range tableText(v) {
		all = append(all, strings.Join(r, " "))
	}
	for _, want := range []string{"cells: READY 0/1→1/1, STATUS Pending→Running", "as the table listed it (cells only)"} {
		if !strings.Contains(strings.Join(all, "\n"), want) {
			t.Errorf("history lacks %q:\n%s", want, strings.Join(all, "\n"))
		}
	}
	nav.Press(v, key(tcell.KeyEnter))
	pushed := nav.Pushed()
	d, ok := pushed[len(pushed)-1].(*DiffView)
	if !ok {
		t.Fatalf("enter pushed %T", pushed[len(pushed)-1])
	}
	if title := d.text.GetTitle(); !strings.Contains(title, "diff[white] shop/api-5c4b-zzzzz") {
		t.Errorf("diff title %q", title)
	}
	diff := d.text.GetText(true)
	for _, want := range []string{"- STATUS: Pending", "+ STATUS: Running", "  NAME: api-5c4b-zzzzz"} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
}

// TestHistoryWithoutVersions: with no version kept, the history says how it keeps them, dimmed, and Enter
// opens nothing.
func TestHistoryWithoutVersions(t *testing.T) {
	nav := navtest.New(t, nil)
	v := NewHistory(nav, tableRow("shop", "web"), func() []history.Entry { return nil }).(*HistoryView)
	nav.UI(func() { nav.Push(v) })
	cell := v.table.GetCell(1, 0)
	if !strings.HasPrefix(cell.Text, "no version seen yet") {
		t.Errorf("empty history shows %q", cell.Text)
	}
	if fg, _, _ := cell.Style.Decompose(); fg != nav.Theme().Dim {
		t.Errorf("the note's color %v, want the theme's dim %v", fg, nav.Theme().Dim)
	}
	nav.Press(v, key(tcell.KeyEnter))
	if len(nav.Pushed()) != 1 {
		t.Errorf("enter with no version pushed %v", nav.Pushed())
	}
}
