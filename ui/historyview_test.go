package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// deploymentVersion is the fixture's deployment at resourceVersion rv with replicas and image, its
// managedFields the entries given (manager, operation, seconds after t0).
func deploymentVersion(rv string, replicas int64, image string, entries ...any) *unstructured.Unstructured {
	o := deploymentObject()
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

// TestHistoryOfYAML: versions a YAML view's watch delivers are kept; the history lists each with the
// manager that made it (the managedFields entry that changed) and the fields that changed, newest first;
// Enter shows the YAML diff to the version before.
func TestHistoryOfYAML(t *testing.T) {
	h := start(t, 140, 30, func(o *Options) { o.Resource = "deployments"; o.Tick = time.Second })
	h.cluster.put(deploymentsGVR, deploymentVersion("5", 2, "nginx:1", "kubectl", "Apply", 0))
	h.press(tcell.KeyRune, 'y')
	waitFor(t, h, "image: nginx:1")
	h.cluster.put(deploymentsGVR, deploymentVersion("6", 3, "nginx:1", "kubectl", "Apply", 0, "kubectl-patch", "Update", 10))
	waitFor(t, h, "replicas: 3")
	// The table below sees the same change as a row: the full version stands for it. (The row it replaced, as
	// the fixture lists it, has no resourceVersion: it stays, as the version the table listed.)
	src := h.cluster.lastSource()
	row, _ := src.Row("shop/web")
	changed := *row
	changed.ResourceVersion, changed.Cells = "6", append([]string{}, row.Cells...)
	changed.Cells[1] = "3/3"
	src.Put(&changed)
	if len(src.Versions("shop/web")) != 2 {
		t.Fatalf("the table kept %d versions of the row", len(src.Versions("shop/web")))
	}
	h.cluster.put(deploymentsGVR, deploymentVersion("7", 3, "nginx:2", "kubectl", "Apply", 0, "kubectl-patch", "Update", 10, "deployer", "Update", 20))
	waitFor(t, h, "image: nginx:2")
	h.cluster.put(deploymentsGVR, deploymentVersion("8", 4, "nginx:2", "kubectl", "Apply", 0, "kubectl-patch", "Update", 30, "deployer", "Update", 20))
	waitFor(t, h, "replicas: 4")
	h.press(tcell.KeyRune, 'h')
	waitFor(t, h, "history shop/web [5]")
	scr := h.text()
	for _, want := range []string{"kubectl-patch", "deployer", "first version seen", "spec.replicas",
		"spec.template.spec.containers[name=web].image", "kept: 50 per object"} {
		if !strings.Contains(scr, want) {
			t.Errorf("history lacks %q:\n%s", want, scr)
		}
	}
	rows := historyRows(scr)
	wantRows := [][]string{{"8", "kubectl-patch", "Update", "spec.replicas"},
		{"7", "deployer", "Update", "spec.template.spec.containers[name=web].image"},
		{"6", "kubectl-patch", "Update", "spec.replicas"}, {"5", "kubectl", "Apply", "first version seen"},
		{"—", "—", "—", "as the table listed it"}}
	if len(rows) != len(wantRows) {
		t.Fatalf("history rows = %q", rows)
	}
	for i, w := range wantRows {
		if strings.Join(rows[i][1:4], " ") != strings.Join(w[:3], " ") || !strings.Contains(strings.Join(rows[i][4:], " "), w[3]) {
			t.Errorf("row %d = %q, want %q", i, rows[i], w)
		}
	}
	// The view reads the versions again every tick while it is shown.
	h.cluster.put(deploymentsGVR, deploymentVersion("9", 5, "nginx:2", "kubectl", "Apply", 0, "kubectl-patch", "Update", 40, "deployer", "Update", 20))
	// The YAML view's watch records the version on its own goroutine: the tick must come after it.
	h.until("version 9 recorded", func() bool { return len(h.app.versions.Versions(deploymentsGVR, "shop", "web")) == 5 })
	h.advance(time.Second)
	waitFor(t, h, "history shop/web [6]")
	h.press(tcell.KeyDown, 0) // the cursor stayed on version 8: down to 7
	h.press(tcell.KeyEnter, 0)
	waitFor(t, h, "diff shop/web  6 → 7  deployer (Update)")
	h.contains("-       - image: nginx:1")
	h.contains("+       - image: nginx:2")
	h.contains("⋯ 4 unchanged lines") // apiVersion … labels: more than 3 lines from a change
	h.lacks("kind: Deployment")
	if st, ok := h.style("+       - image: nginx:2"); !ok || fg(st) != tcell.ColorGreen {
		t.Errorf("added line style = %v", st)
	}
	if st, ok := h.style("-       - image: nginx:1"); !ok || fg(st) != tcell.ColorRed {
		t.Errorf("removed line style = %v", st)
	}
}

// historyRows returns the history table's rows on screen, as fields (the header left out).
func historyRows(scr string) [][]string {
	var out [][]string
	in := false
	for _, l := range strings.Split(scr, "\n") {
		l = strings.Trim(l, "│║ ")
		if strings.HasPrefix(l, "TIME") {
			in = true
			continue
		}
		f := strings.Fields(l)
		if in && len(f) >= 5 && strings.Count(f[0], ":") == 2 || in && len(f) >= 5 && f[0] == "listed" {
			out = append(out, f)
		}
	}
	return out
}

// TestHistoryOfRow: a table keeps its rows' versions; the history of a row never opened in YAML shows the
// cells that changed, and the diff shows them.
func TestHistoryOfRow(t *testing.T) {
	h := start(t, 140, 30, func(o *Options) { o.Resource = "pods" })
	src := h.cluster.lastSource()
	base, _ := src.Row("shop/api-5c4b-zzzzz")
	next := *base
	next.ResourceVersion = "41"
	next.Cells = append([]string(nil), base.Cells...)
	next.Cells[2] = "Running"
	next.Cells[1] = "1/1"
	src.Put(&next)
	h.refresh()
	h.press(tcell.KeyRune, 'h') // the first row: api-5c4b-zzzzz
	waitFor(t, h, "history shop/api-5c4b-zzzzz [2]")
	h.contains("cells: READY 0/1→1/1, STATUS Pending→Running")
	h.contains("as the table listed it (cells only)")
	h.press(tcell.KeyEnter, 0)
	waitFor(t, h, "diff shop/api-5c4b-zzzzz")
	h.contains("- STATUS: Pending")
	h.contains("+ STATUS: Running")
	h.contains("  NAME: api-5c4b-zzzzz")
}

// TestYAMLHighlightsChangedLines: after an update the YAML view highlights the lines it changed, for
// yamlFlashFor on the app's clock; then they are shown as the others.
func TestYAMLHighlightsChangedLines(t *testing.T) {
	h := start(t, 120, 30, func(o *Options) { o.Resource = "deployments" })
	h.press(tcell.KeyRune, 'y')
	waitFor(t, h, "replicas: 2")
	h.cluster.put(deploymentsGVR, deploymentVersion("9", 5, "nginx:1"))
	waitFor(t, h, "replicas: 5")
	bg := func(s string) tcell.Color {
		st, ok := h.style(s)
		if !ok {
			t.Fatalf("no %q on screen:\n%s", s, h.text())
		}
		_, b, _ := st.Decompose()
		return b
	}
	if got := bg("replicas: 5"); got != tcell.GetColor(flashBackground) {
		t.Errorf("changed line background = %v, want %s", got, flashBackground)
	}
	if got := bg("kind: Deployment"); got == tcell.GetColor(flashBackground) {
		t.Error("an unchanged line is highlighted")
	}
	h.advance(yamlFlashFor - time.Millisecond)
	h.sync()
	if got := bg("replicas: 5"); got != tcell.GetColor(flashBackground) {
		t.Errorf("highlight gone before %v", yamlFlashFor)
	}
	h.advance(time.Millisecond)
	deadline := time.Now().Add(5 * time.Second)
	for bg("replicas: 5") == tcell.GetColor(flashBackground) {
		if time.Now().After(deadline) {
			t.Fatalf("still highlighted after %v", yamlFlashFor)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestBlameView: b in the YAML view annotates each line with its manager and the age of its last write;
// unowned fields are marked.
func TestBlameView(t *testing.T) {
	h := start(t, 140, 80, func(o *Options) { o.Resource = "deployments" })
	obj := readObject(t, "blame_deployment.json")
	obj.SetName("web")
	obj.SetNamespace("shop")
	h.cluster.put(deploymentsGVR, obj)
	h.press(tcell.KeyRune, 'y')
	waitFor(t, h, "image: nginx:1")
	h.advance(time.Date(2026, 12, 1, 21, 34, 56, 0, time.UTC).Sub(t0)) // 5 minutes after the patch
	h.press(tcell.KeyRune, 'b')
	waitFor(t, h, "blame shop/web at resourceVersion 54424")
	for _, want := range []string{
		"kubectl-patch 5m ",
		"│   replicas: 2",
		"(no manager)",
	} {
		h.contains(want)
	}
	lineOf := func(s string) string {
		for _, l := range strings.Split(h.text(), "\n") {
			if strings.Contains(l, s) {
				return l
			}
		}
		return ""
	}
	if l := lineOf("  replicas: 2"); !strings.Contains(l, "kubectl-patch") {
		t.Errorf("replicas line = %q", l)
	}
	if l := lineOf("value: fast"); !strings.HasPrefix(strings.Trim(l, "│║ "), "b ") {
		t.Errorf("env value line = %q", l)
	}
	if l := lineOf("uid: "); !strings.Contains(l, "(no manager)") {
		t.Errorf("uid line = %q", l)
	}
}
