package ui

import (
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/types"

	"kscope/union"
	"kscope/watch"
)

// eventuallyLine waits for a screen line that matches the words in order, any spaces between them.
func (h *harness) eventuallyLine(words ...string) {
	h.t.Helper()
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = regexp.QuoteMeta(w)
	}
	re := regexp.MustCompile(`(?m)` + strings.Join(quoted, `\s+`))
	deadline := time.Now().Add(5 * time.Second)
	for !re.MatchString(h.text()) {
		if time.Now().After(deadline) {
			h.t.Fatalf("no line %q on the screen:\n%s", strings.Join(words, " "), h.text())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sourceOf returns the newest fake source of resource in namespace.
func (h *harness) sourceOf(resource, namespace string) *watch.StaticSource {
	h.t.Helper()
	h.cluster.mu.Lock()
	defer h.cluster.mu.Unlock()
	for i := len(h.cluster.sources) - 1; i >= 0; i-- {
		if s := h.cluster.sources[i]; s.Spec().GVR.Resource == resource && s.Spec().Namespace == namespace {
			return s
		}
	}
	h.t.Fatalf("no source of %s in %q", resource, namespace)
	return nil
}

// withAllCategory puts pods, deployments and replicasets in the category all, as the server does.
func (h *harness) withAllCategory() {
	var rs = h.cluster.catalog.Resources()
	for i, r := range rs {
		if slices.Contains([]string{"pods", "deployments", "replicasets"}, r.Name) {
			rs[i].Categories = []string{"all"}
		}
	}
	h.cluster.catalog.Set(rs...)
}

func TestSeveralKindsInOneTable(t *testing.T) {
	h := start(t, 120, 30, nil)
	h.command("deploy,rs,po")
	h.eventually("deployments,replicasets,pods(shop)[5]")
	h.eventually("synced  5/5")
	// The kinds' columns differ: KIND, NAME, AGE; rows in the natural order (namespace, name).
	h.eventuallyLine("KIND", "NAME", "AGE")
	h.eventuallyLine("pod", "api-5c4b-zzzzz", "3d")
	h.eventuallyLine("deployment.apps", "web", "3h")
	h.eventuallyLine("replicaset.apps", "web-7d9f", "3h")
	h.eventuallyLine("pod", "web-7d9f-abcde", "5m")
	h.contains("<deployments,replicasets,pods>")

	// live: a kind's changes reach the table
	h.sourceOf("replicasets", "shop").Put(&watch.Row{Key: "shop/web-8e0a", Namespace: "shop", Name: "web-8e0a",
		UID: types.UID("uid-web-8e0a"), ResourceVersion: "9", Created: t0, Cells: []string{"web-8e0a", "1", "0", "0", "<age>"}})
	h.eventually("deployments,replicasets,pods(shop)[6]")
	h.eventuallyLine("replicaset.apps", "web-8e0a", "0s")
	h.sourceOf("pods", "shop").Delete("shop/api-5c4b-zzzzz")
	h.eventually("deployments,replicasets,pods(shop)[5]")
	h.advance(5 * time.Second) // past the dimmed ghost
	h.refresh()
	h.lacks("api-5c4b-zzzzz")

	// filter on the KIND cell, then act on the row's own kind
	h.typeText("/deployment\n")
	h.eventually("deployments,replicasets,pods(shop)[1]")
	h.press(tcell.KeyRune, 'd')
	h.eventually("Name:         web")
	h.until("describe of the deployment", func() bool {
		return slices.Contains(h.cluster.recorded(), "describe deployments/shop/web")
	})
	h.press(tcell.KeyEscape, 0)
	h.eventually("deployments,replicasets,pods(shop)[1]")
	h.press(tcell.KeyCtrlD, 0)
	h.eventually("Delete deployments web?")
	h.press(tcell.KeyEnter, 0) // Cancel is focused
	h.press(tcell.KeyEscape, 0)
	h.eventually("deployments,replicasets,pods(shop)[5]")
	h.typeText("/abcde\n")
	h.eventually("deployments,replicasets,pods(shop)[1]")
	h.press(tcell.KeyEnter, 0)
	h.eventually("pods shop/web-7d9f-abcde")
	h.eventually("image: nginx:1.27")
	h.press(tcell.KeyEscape, 0)

	// sort by KIND
	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyRune, '>')
	h.eventually("sort:KIND↑")

	// the sources stop with the table
	h.command("deploy")
	h.eventually("deployments(shop)[1]")
	h.until("the kinds' sources stopped", func() bool {
		h.cluster.mu.Lock()
		defer h.cluster.mu.Unlock()
		for _, s := range h.cluster.sources {
			if r := s.Spec().GVR.Resource; (r == "pods" || r == "replicasets") && s.Started() && !s.Stopped() {
				return false
			}
		}
		return true
	})
}

func TestSeveralKindsWithTheSameColumnsKeepThem(t *testing.T) {
	h := start(t, 120, 30, nil)
	h.cluster.mu.Lock()
	h.cluster.columns["widgets"] = h.cluster.columns["replicasets"]
	h.cluster.rows["widgets"] = []*watch.Row{{Key: "shop/gizmo", Namespace: "shop", Name: "gizmo", UID: "uid-gizmo",
		Created: t0.Add(-time.Minute), Cells: []string{"gizmo", "4", "3", "1", "<age>"}}}
	h.cluster.mu.Unlock()
	h.command("rs,wd")
	h.eventually("replicasets,widgets(shop)[2]")
	h.eventuallyLine("KIND", "NAME", "DESIRED", "CURRENT", "READY", "AGE")
	h.eventuallyLine("widget.shop.example.com", "gizmo", "4", "3", "1", "60s")
	h.eventuallyLine("replicaset.apps", "web-7d9f", "2", "2", "2", "3h")
	// a filter on a kept column, a sort by it
	h.typeText("/^4$\n")
	h.eventually("replicasets,widgets(shop)[1]")
}

func TestAllIsTheCategory(t *testing.T) {
	dir := t.TempDir()
	h := start(t, 120, 30, func(o *Options) { o.SaveDir = dir })
	h.withAllCategory()
	h.command("all")
	h.eventually("all(shop)[5]")
	h.eventuallyLine("deployment.apps", "web")
	h.eventuallyLine("replicaset.apps", "web-7d9f")
	h.lacks("secret")

	// all namespaces (0): a NAMESPACE column, the other namespace's rows
	h.press(tcell.KeyRune, '0')
	h.eventually("all(all)[6]")
	h.eventuallyLine("KIND", "NAMESPACE", "NAME", "AGE")
	h.eventuallyLine("pod", "data", "db-0")
	// another namespace
	h.command("ns data")
	h.eventually("all(data)[1]")
	h.command("ns shop")
	h.eventually("all(shop)[5]")

	// export: the rows as shown
	h.typeText("/web\n")
	h.eventually("all(shop)[4]")
	h.press(tcell.KeyCtrlS, 0)
	h.eventually("save the table as (.csv or .json): all-shop-")
	h.press(tcell.KeyEnter, 0)
	h.eventually("saved 4 rows to ")
	files, _ := filepath.Glob(filepath.Join(dir, "tables", "all-shop-*.csv"))
	if len(files) != 1 {
		t.Fatalf("files %q", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range records {
		got = append(got, strings.Join(r, " "))
	}
	want := []string{"KIND NAME AGE", "deployment.apps web 3h", "replicaset.apps web-7d9f 3h",
		"pod web-7d9f-abcde 5m", "pod web-7d9f-fghij 120m"}
	if !slices.Equal(got, want) {
		t.Errorf("exported\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSeveralKindsHistoryAndStart(t *testing.T) {
	h := start(t, 120, 30, func(o *Options) { o.Resource = "deploy,rs" })
	h.eventually("deployments,replicasets(shop)[2]")
	h.withAllCategory()
	h.command("all")
	h.eventually("all(shop)[5]")
	h.command("secrets")
	h.eventually("secrets(shop)[1]")
	h.press(tcell.KeyRune, '[')
	h.eventually("all(shop)[5]")
	h.press(tcell.KeyRune, '[')
	h.eventually("deployments,replicasets(shop)[2]")
	h.press(tcell.KeyRune, ']')
	h.eventually("all(shop)[5]")
	h.press(tcell.KeyRune, '-')
	h.eventually("deployments,replicasets(shop)[2]")
	h.press(tcell.KeyRune, '-')
	h.eventually("all(shop)[5]")
	h.ui(func() {
		if n := len(h.app.stack); n != 2 {
			t.Errorf("stack of %d views, want the picker and one table", n)
		}
	})
}

// withSearchText gives the fixture's rows the search text a Source's rows have (Filter's fast path).
func (h *harness) withSearchText() {
	h.cluster.mu.Lock()
	defer h.cluster.mu.Unlock()
	for res, rows := range h.cluster.rows {
		age := union.AgeIndex(h.cluster.columns[res])
		for i, r := range rows {
			rows[i] = r.WithCells(r.Cells, age)
		}
	}
}

func TestSeveralKindsInSeveralNamespaces(t *testing.T) {
	h := start(t, 120, 30, nil)
	h.withSearchText()
	h.command("deploy,po shop,data")
	h.eventually("deployments,pods(shop,data)[5]")
	h.eventuallyLine("KIND", "NAMESPACE", "NAME", "AGE")
	h.eventuallyLine("pod", "data", "db-0", "30d")
	h.eventuallyLine("deployment.apps", "shop", "web", "3h")
	h.press(tcell.KeyRune, '0')
	h.eventually("deployments,pods(all)[5]")
	h.command("deploy,po shop,data")
	h.eventually("deployments,pods(shop,data)[5]")
	// the cells the table added are filtered as the others are
	h.typeText("/^data$\n")
	h.eventually("deployments,pods(shop,data)[1]")
	h.typeText("/^deployment.apps$\n")
	h.eventually("deployments,pods(shop,data)[1]")
	h.typeText("/pod\n")
	h.eventually("deployments,pods(shop,data)[4]")
	h.press(tcell.KeyEscape, 0)
	h.command("pods shop,data")
	h.eventually("pods(shop,data)[4]")
	h.typeText("/^data$\n")
	h.eventually("pods(shop,data)[1]")
	h.command("deploy,po data")
	h.eventually("deployments,pods(data)[1]")
	h.contains("Namespace: data")
}

func TestSeveralKindsNameAForbiddenKindAndRefuseTheUnknown(t *testing.T) {
	h := start(t, 160, 30, nil)
	h.command("deploy,secrets")
	h.eventually("deployments,secrets(shop)[2]")
	h.sourceOf("secrets", "shop").SetState(watch.State{Phase: watch.Forbidden, Err: errors.New("forbidden"),
		Message: `secrets is forbidden: User "viewer" cannot list resource "secrets" in API group "" in the namespace "shop"`})
	h.eventually(`forbidden  2/2  secret: secrets is forbidden: User "viewer" cannot list resource "secrets"`)
	h.eventuallyLine("deployment.apps", "web")

	h.command("rs,cm")
	h.eventually("replicasets,configmaps(shop)[1]")
	h.command("cm,wd")
	h.eventually("no objects of configmaps,widgets here")
	h.command("deploy,secrets")
	h.eventually("deployments,secrets(shop)[2]")

	h.command("deploy,podz,rs")
	h.eventually(`unknown resource "podz" (did you mean pods`)
	h.contains("deployments,secrets(shop)[2]")
	h.command("deploy,tokenreviews")
	h.eventually("cannot be listed and watched: tokenreviews.authentication.k8s.io: no list/watch")
	h.command("ns,namespaces shop,data")
	h.eventually("namespaces is cluster-scoped")
	h.command("deploy,ns shop,Bad_NS")
	h.eventually(`invalid namespace "Bad_NS"`)
	h.contains("deployments,secrets(shop)[2]")
}

func TestSeveralKindsComplete(t *testing.T) {
	h := start(t, 120, 30, nil)
	h.withAllCategory()
	for _, tt := range []struct{ line, want string }{
		{"deploy,repl", "deploy,replicaset"},
		{"deploy,replicasets.", "deploy,replicasets.apps"},
		{"deploy,rs,po", "deploy,rs,po"},
		{"al", "all"},
		{"deploy,al", "deploy,all"},
		{"deploy,zz", "deploy,zz"},
		{"ns da", "ns data"},
	} {
		var got string
		h.quietly(func() { got, _ = h.app.completeCommand(tt.line) })
		if got != tt.want {
			t.Errorf("Tab on %q: %q, want %q", tt.line, got, tt.want)
		}
	}
	h.typeText(":deploy,repl")
	h.press(tcell.KeyTab, 0)
	h.eventually(":deploy,replicaset\n")
}
