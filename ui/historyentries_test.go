package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/history"
	"kscope/watch"
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

// TestHistoryOfYAML: versions a YAML view's watch delivers are kept in the app's book; `h` there opens the
// registered history screen (Roles.History) with the object's row and its versions: the full ones
// and, where the book has no full version, the table's own row versions (the row as it was listed), oldest
// first, read again at each call.
func TestHistoryOfYAML(t *testing.T) {
	var opened *watch.Row
	var entries func() []history.Entry
	h := start(t, 140, 30, func(o *Options) {
		o.Resource = "deployments"
		o.Registered[0].Plays.History = func(nav Navigator, row *watch.Row, e func() []history.Entry) Screen {
			opened, entries = row, e
			return stubHistory(nav, row, e)
		}
	})
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
	waitFor(t, h, "history stub of shop/web")
	if opened == nil || opened.Key != "shop/web" {
		t.Fatalf("history opened with row %+v, want shop/web", opened)
	}
	versions := func() (rvs []string, full []bool) {
		h.quietly(func() {
			for _, e := range entries() {
				rvs, full = append(rvs, e.RV), append(full, e.Obj != nil)
			}
		})
		return rvs, full
	}
	rvs, full := versions()
	if want := []string{"", "5", "6", "7", "8"}; strings.Join(rvs, ",") != strings.Join(want, ",") {
		t.Fatalf("versions %q, want %q", rvs, want)
	}
	if want := []bool{false, true, true, true, true}; fmt.Sprint(full) != fmt.Sprint(want) {
		t.Errorf("full versions %v, want %v (the listed row from the table, the rest from the book)", full, want)
	}
	// The screen reads the versions again: a version the YAML view's watch records later is there.
	h.cluster.put(deploymentsGVR, deploymentVersion("9", 5, "nginx:2", "kubectl", "Apply", 0, "kubectl-patch", "Update", 40, "deployer", "Update", 20))
	h.until("version 9 recorded", func() bool { return len(h.app.versions.Versions(deploymentsGVR, "shop", "web")) == 5 })
	if rvs, _ := versions(); len(rvs) != 6 || rvs[5] != "9" {
		t.Errorf("versions read again %q, want version 9 last", rvs)
	}
}

// TestHistoryOfRow: a table keeps its rows' versions; `h` on a row never opened in YAML opens the registered
// history screen with the table's versions of the row (its cells, the table's columns).
func TestHistoryOfRow(t *testing.T) {
	var entries func() []history.Entry
	h := start(t, 140, 30, func(o *Options) {
		o.Resource = "pods"
		o.Registered[0].Plays.History = func(nav Navigator, row *watch.Row, e func() []history.Entry) Screen {
			entries = e
			return stubHistory(nav, row, e)
		}
	})
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
	waitFor(t, h, "history stub of shop/api-5c4b-zzzzz")
	var got []history.Entry
	h.quietly(func() { got = entries() })
	if len(got) != 2 || got[0].RV != "" || got[1].RV != "41" || got[1].Row == nil || got[1].PrevRow == nil ||
		got[1].PrevRow.Cells[2] != "Pending" || got[1].Row.Cells[2] != "Running" {
		t.Fatalf("entries %+v, want the listed row then version 41", got)
	}
	if len(got[1].Columns) < 3 || got[1].Columns[2].Name != "STATUS" {
		t.Errorf("entries' columns %+v, want the table's", got[1].Columns)
	}
}

// TestVersionsKeysNeedTheirScreens: without a history or blame screen registered, `h` (table, YAML view) and
// `b` (YAML view) are not bound, and the help does not list them.
func TestVersionsKeysNeedTheirScreens(t *testing.T) {
	h := start(t, 140, 40, func(o *Options) {
		o.Resource = "deployments"
		o.Registered[0].Plays.History, o.Registered[0].Plays.Blame = nil, nil
	})
	h.press(tcell.KeyRune, 'h')
	h.contains("deployments(shop)[1]")
	h.press(tcell.KeyRune, 'y')
	waitFor(t, h, "kind: Deployment")
	h.press(tcell.KeyRune, 'h')
	h.press(tcell.KeyRune, 'b')
	h.contains("kind: Deployment")
	h.lacks("stub of")
	h.press(tcell.KeyRune, '?')
	for _, desc := range []string{"the versions seen", "each line's field manager"} {
		if strings.Contains(h.text(), desc) {
			t.Errorf("the help lists %q with no screen registered", desc)
		}
	}
}

// TestBlameKeyOpensTheRegisteredScreen: `b` in the YAML view opens the registered blame screen
// (Roles.Blame) with the row and the object the view shows; esc goes back.
func TestBlameKeyOpensTheRegisteredScreen(t *testing.T) {
	var obj *unstructured.Unstructured
	h := start(t, 140, 40, func(o *Options) {
		o.Resource = "deployments"
		o.Registered[0].Plays.Blame = func(nav Navigator, row *watch.Row, u *unstructured.Unstructured) Screen {
			obj = u
			return stubBlame(nav, row, u)
		}
	})
	h.cluster.put(deploymentsGVR, deploymentVersion("7", 3, "nginx:2", "kubectl", "Apply", 0))
	h.press(tcell.KeyRune, 'y')
	waitFor(t, h, "image: nginx:2")
	h.press(tcell.KeyRune, 'b')
	waitFor(t, h, "blame stub of shop/web at 7")
	if obj == nil || obj.GetName() != "web" || obj.GetResourceVersion() != "7" {
		t.Errorf("blame opened with %v, want the YAML view's object", obj)
	}
	h.press(tcell.KeyEscape, 0)
	waitFor(t, h, "image: nginx:2")
}

// stubHistory is the tests' history screen (the real one, package ui/versions, imports ui): a line naming
// the object.
func stubHistory(nav Navigator, row *watch.Row, _ func() []history.Entry) Screen {
	return &stubScreen{nav: nav, text: tview.NewTextView().SetText("history stub of " + row.Key)}
}

// stubBlame is the tests' blame screen: a line naming the object and its resourceVersion.
func stubBlame(nav Navigator, row *watch.Row, obj *unstructured.Unstructured) Screen {
	return &stubScreen{nav: nav, text: tview.NewTextView().SetText("blame stub of " + row.Key + " at " + obj.GetResourceVersion())}
}
