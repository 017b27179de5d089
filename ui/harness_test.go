package ui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/livetable"
	"kscope/watch"
)

var update = flag.Bool("update", false, "rewrite the golden screens under testdata/")

// uiWait bounds every wait of the harness for the UI goroutine, the screen or a state. The waits end as soon
// as what they wait for holds, so the bound costs nothing when a test passes; it is generous so that it holds
// with -race on a loaded 2-core machine, where a draw can come seconds late.
const uiWait = 30 * time.Second

// t0 is the fake clock's start.
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// harness runs an App on a simulation screen against a fakeCluster.
type harness struct {
	t       *testing.T
	app     *App
	screen  tcell.SimulationScreen
	cluster *fakeCluster
	clk     *clocktesting.FakeClock
	done    chan error
}

// advance moves the fake clock on by d, firing the timers and tickers it passes.
func (h *harness) advance(d time.Duration) { h.clk.Step(d) }

// unchangedEditor saves what it was given (an edit then cancels): unit tests never start a real editor.
func unchangedEditor(content []byte) ([]byte, string, error) { return content, "", nil }

// start runs the UI at w×h; opts (may be nil) adjusts the options.
func start(t *testing.T, w, hgt int, opts func(*Options)) *harness {
	t.Helper()
	h := &harness{t: t, cluster: fixtureCluster(), clk: clocktesting.NewFakeClock(t0), done: make(chan error, 1)}
	o := Options{Cluster: h.cluster, Version: "v0.1.0", Clock: h.clk, Tick: -1, MinRedraw: -1, Edit: unchangedEditor,
		Registered: stubScreens()}
	if opts != nil {
		opts(&o)
	}
	h.app = New(o)
	h.screen = tcell.NewSimulationScreen("UTF-8")
	h.app.SetScreen(h.screen)
	h.screen.SetSize(w, hgt)
	go func() { h.done <- h.app.Run() }()
	t.Cleanup(func() {
		h.app.Stop()
		select {
		case <-h.done:
		case <-time.After(uiWait):
			t.Error("the UI did not stop")
		}
	})
	h.sync()
	if o.Resource != "" {
		h.waitOpened(nil)
	}
	return h
}

// command types `:text` and Enter as one burst, then waits for the view it opens (resolved off the UI
// goroutine) or for the line that says why it did not open.
func (h *harness) command(text string) {
	h.t.Helper()
	var before Screen
	h.quietly(func() { before = h.app.top() })
	h.burst(":" + text + "\n")
	h.waitOpened(before)
}

// waitOpened waits until a view other than before is on top (nil: any view above the picker), or the command
// bar says why none opened; and until the answers the opening asked for (access questions, requests) have
// been shown, so that a draw they cause does not land in what the test does next. It asks without drawing:
// what opens the view draws (the key's draw, or the QueueUpdateDraw of an answer read off the UI goroutine),
// and reading the screen draws it again.
func (h *harness) waitOpened(before Screen) {
	h.t.Helper()
	deadline := time.Now().Add(uiWait)
	for {
		var opened bool
		h.quietly(func() {
			top := h.app.top()
			opened = (before == nil && len(h.app.stack) > 1) || (before != nil && top != before) ||
				h.app.bar.ShownMessage() != ""
			opened = opened && h.app.pending.Load() == 0
		})
		if opened {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("no view opened and no message after %v:\n%s", uiWait, h.text())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ui runs fn on the UI goroutine, redraws, and waits for both.
func (h *harness) ui(fn func()) {
	h.t.Helper()
	done := make(chan struct{})
	h.app.tv.QueueUpdateDraw(fn)
	h.app.tv.QueueUpdate(func() { close(done) })
	select {
	case <-done:
	case <-time.After(uiWait):
		h.t.Fatal("the UI goroutine did not answer")
	}
}

func (h *harness) sync() { h.ui(func() {}) }

// quietly runs fn on the UI goroutine and waits for it, without the redraw that ui adds.
func (h *harness) quietly(fn func()) {
	h.t.Helper()
	done := make(chan struct{})
	h.app.tv.QueueUpdate(func() { fn(); close(done) })
	select {
	case <-done:
	case <-time.After(uiWait):
		h.t.Fatal("the UI goroutine did not answer")
	}
}

// press delivers a key as tview's event loop does: input capture, then the focused primitive, then a draw.
func (h *harness) press(k tcell.Key, r rune) {
	h.t.Helper()
	h.ui(func() { h.deliver(tcell.NewEventKey(k, r, tcell.ModNone)) })
}

// burst delivers the keys of s (Enter for "\n", Tab for "\t") one after the other on one turn of the UI
// goroutine, then draws once: as the app takes keys that arrive together, typed ahead or sent by a script (burstScreen,
// App.skipDraw). A draw of the screen costs milliseconds, many more with -race: typing a command key by key,
// a draw after each, was most of the time of the tests that open views again and again.
func (h *harness) burst(s string) {
	h.t.Helper()
	h.ui(func() {
		for _, r := range s {
			ev := tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone)
			switch r {
			case '\n':
				ev = tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
			case '\t':
				ev = tcell.NewEventKey(tcell.KeyTab, 0, tcell.ModNone)
			}
			h.deliver(ev)
		}
	})
}

// deliver hands ev to the input capture, then to the focused primitive. UI goroutine only.
func (h *harness) deliver(ev *tcell.EventKey) {
	if ev = h.app.capture(ev); ev == nil {
		return
	}
	if handler := h.app.root.InputHandler(); handler != nil {
		handler(ev, func(p tview.Primitive) { h.app.tv.SetFocus(p) })
	}
}

// typeText presses each character of s, then Enter if s ends with "\n".
func (h *harness) typeText(s string) {
	h.t.Helper()
	for _, r := range s {
		if r == '\n' {
			h.press(tcell.KeyEnter, 0)
			continue
		}
		h.press(tcell.KeyRune, r)
	}
}

// runBinding runs the top view's binding with the first of names it has, as its key would.
func (a *App) runBinding(names ...string) {
	for _, name := range names {
		for _, b := range a.top().Bindings() {
			if b.Name == name && b.Active() {
				b.Run()
				return
			}
		}
	}
}

// refresh makes the top table take its source's changes now (instead of waiting for its loop).
func (h *harness) refresh() {
	h.ui(func() {
		if t, ok := h.app.top().(*livetable.Table); ok {
			t.Refresh()
		}
	})
}

// text returns the screen as lines of text, trailing spaces trimmed: the screen as last drawn (then it is
// drawn again, for the next look).
func (h *harness) text() string {
	var cells []tcell.SimCell
	var w, hgt int
	h.ui(func() { // on the UI goroutine: no draw runs meanwhile
		c, cw, ch := h.screen.GetContents()
		cells, w, hgt = append([]tcell.SimCell(nil), c...), cw, ch
	})
	return cellsText(cells, w, hgt)
}

// textNow draws the screen and returns it as text: what the UI shows now, with one draw.
func (h *harness) textNow() string {
	var cells []tcell.SimCell
	var w, hgt int
	h.quietly(func() {
		h.app.tv.ForceDraw() // (safe in a queued update)
		c, cw, ch := h.screen.GetContents()
		cells, w, hgt = append([]tcell.SimCell(nil), c...), cw, ch
	})
	return cellsText(cells, w, hgt)
}

// cellsText returns a screen's cells as lines of text, trailing spaces trimmed.
func cellsText(cells []tcell.SimCell, w, hgt int) string {
	var b strings.Builder
	for y := 0; y < hgt; y++ {
		var line strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				line.WriteByte(' ')
				continue
			}
			line.WriteString(string(c.Runes))
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	return b.String()
}

// style returns the style of the first cell on the screen whose line contains substr at that cell.
func (h *harness) style(substr string) (tcell.Style, bool) {
	lines := strings.Split(h.text(), "\n")
	var cells []tcell.SimCell
	var w int
	h.ui(func() {
		c, cw, _ := h.screen.GetContents()
		cells, w = append([]tcell.SimCell(nil), c...), cw
	})
	for y, l := range lines {
		if i := strings.Index(l, substr); i >= 0 {
			x := len([]rune(l[:i]))
			return cells[y*w+x].Style, true
		}
	}
	return tcell.StyleDefault, false
}

// golden compares the screen with testdata/name.txt (rewritten with -update).
func (h *harness) golden(name string) {
	h.t.Helper()
	got := h.text()
	path := filepath.Join("testdata", name+".txt")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			h.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		h.t.Fatalf("read golden screen (run with -update to create it): %v", err)
	}
	if got != string(want) {
		h.t.Errorf("screen differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// contains fails unless the screen shows substr.
func (h *harness) contains(substr string) {
	h.t.Helper()
	if s := h.text(); !strings.Contains(s, substr) {
		h.t.Errorf("screen lacks %q:\n%s", substr, s)
	}
}

// countDraws counts the screen's draws from now on; it returns the function that reads the count.
func (h *harness) countDraws() func() int {
	var mu sync.Mutex
	draws := 0
	h.ui(func() {
		h.app.tv.SetAfterDrawFunc(func(tcell.Screen) {
			mu.Lock()
			draws++
			mu.Unlock()
		})
	})
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return draws
	}
}

// waitClockWaiter waits until a goroutine waits on the fake clock (a ticker, or the batching of redraws).
func (h *harness) waitClockWaiter() {
	h.t.Helper()
	deadline := time.Now().Add(uiWait)
	for !h.clk.HasWaiters() {
		if time.Now().After(deadline) {
			h.t.Fatalf("nothing waits on the clock after %v", uiWait)
		}
		time.Sleep(time.Millisecond)
	}
}

// eventually waits up to uiWait for the screen to show substr (for what the UI does off its goroutine first)
// and tells whether it did; if not, the test fails with the screen.
func (h *harness) eventually(substr string) bool {
	h.t.Helper()
	deadline := time.Now().Add(uiWait)
	for !strings.Contains(h.text(), substr) {
		if time.Now().After(deadline) {
			h.t.Errorf("screen never showed %q:\n%s", substr, h.text())
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// until waits up to uiWait for cond, evaluated on the UI goroutine, to hold; if it does not, the test fails
// naming what, with the screen.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(uiWait)
	for {
		var ok bool
		h.quietly(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("no %s after %v:\n%s", what, uiWait, h.text())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// eventuallyAny waits up to uiWait for the screen to show one of texts; if not, the test fails with the screen.
func (h *harness) eventuallyAny(texts ...string) {
	h.t.Helper()
	deadline := time.Now().Add(uiWait)
	for {
		scr := h.text()
		for _, s := range texts {
			if strings.Contains(scr, s) {
				return
			}
		}
		if time.Now().After(deadline) {
			h.t.Errorf("screen never showed any of %q:\n%s", texts, scr)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitDialog waits until a confirmation dialog asking question is open and drawn: a write's dialog opens once
// the server has said the user may make it, which the UI asks off its goroutine.
func (h *harness) waitDialog(question string) {
	h.t.Helper()
	h.until("dialog "+question, func() bool { return h.app.modal != nil })
	if !h.eventually(question) {
		h.t.FailNow()
	}
}

func (h *harness) lacks(substr string) {
	h.t.Helper()
	if s := h.text(); strings.Contains(s, substr) {
		h.t.Errorf("screen shows %q:\n%s", substr, s)
	}
}

// fixtureCluster is a small cluster: pods, deployments, replicasets, namespaces, secrets, a CRD, and
// a resource that cannot be listed.
func fixtureCluster() *fakeCluster {
	verbs := []string{"create", "delete", "get", "list", "patch", "update", "watch"}
	res := func(group, version, name, kind string, namespaced bool, short ...string) discovery.Resource {
		return discovery.Resource{Group: group, Version: version, Name: name, SingularName: strings.ToLower(kind),
			Kind: kind, ShortNames: short, Verbs: verbs, Namespaced: namespaced}
	}
	cat := discovery.NewStaticCatalog(
		res("", "v1", "configmaps", "ConfigMap", true, "cm"),
		res("", "v1", "events", "Event", true, "ev"),
		res("", "v1", "namespaces", "Namespace", false, "ns"),
		res("", "v1", "pods", "Pod", true, "po"),
		res("", "v1", "secrets", "Secret", true),
		withSubresources(res("apps", "v1", "deployments", "Deployment", true, "deploy"), "scale", "status"),
		res("apps", "v1", "replicasets", "ReplicaSet", true, "rs"),
		discovery.Resource{Group: "authentication.k8s.io", Version: "v1", Name: "tokenreviews", SingularName: "tokenreview",
			Kind: "TokenReview", Verbs: []string{"create"}},
		res("shop.example.com", "v1", "widgets", "Widget", true, "wd"),
	)
	name := watch.Column{Name: "NAME", Type: "string", Format: "name"}
	age := watch.Column{Name: "AGE", Type: "date", Age: true}
	row := func(ns, n string, age time.Duration, cells ...string) *watch.Row {
		key := n
		if ns != "" {
			key = ns + "/" + n
		}
		return &watch.Row{Key: key, Namespace: ns, Name: n, UID: types.UID("uid-" + n), Created: t0.Add(-age),
			Labels: map[string]string{"app": strings.Split(n, "-")[0]}, Cells: append([]string{n}, cells...)}
	}
	return &fakeCluster{
		info: cluster.Info{Context: "admin", Cluster: "devcluster", User: "admin", ServerVersion: "v1.37.2",
			Namespace: "shop", Contexts: []string{"admin", "viewer"}},
		catalog: cat,
		columns: map[string][]watch.Column{
			"pods": {name, {Name: "READY", Type: "string"}, {Name: "STATUS", Type: "string"},
				{Name: "RESTARTS", Type: "integer"}, age, {Name: "IP", Type: "string", Priority: 1},
				{Name: "NODE", Type: "string", Priority: 1}},
			"deployments": {name, {Name: "READY", Type: "string"}, {Name: "UP-TO-DATE", Type: "integer"},
				{Name: "AVAILABLE", Type: "integer"}, age, {Name: "IMAGES", Type: "string", Priority: 1}},
			"replicasets": {name, {Name: "DESIRED", Type: "integer"}, {Name: "CURRENT", Type: "integer"},
				{Name: "READY", Type: "integer"}, age},
			"namespaces": {name, {Name: "STATUS", Type: "string"}, age},
			"secrets":    {name, {Name: "TYPE", Type: "string"}, {Name: "DATA", Type: "integer"}, age},
			"events": {{Name: "LAST SEEN", Type: "string"}, {Name: "TYPE", Type: "string"},
				{Name: "REASON", Type: "string"}, {Name: "OBJECT", Type: "string"}, {Name: "MESSAGE", Type: "string"}},
		},
		rows: map[string][]*watch.Row{
			"pods": {
				row("shop", "web-7d9f-abcde", 5*time.Minute, "1/1", "Running", "0", "<age>", "10.0.0.5", "kwok-node-0"),
				row("shop", "web-7d9f-fghij", 2*time.Hour, "1/1", "Running", "2", "<age>", "10.0.0.6", "kwok-node-1"),
				row("shop", "api-5c4b-zzzzz", 72*time.Hour, "0/1", "Pending", "0", "<age>", "<none>", "<none>"),
				row("data", "db-0", 30*24*time.Hour, "1/1", "Running", "0", "<age>", "10.0.1.2", "kwok-node-0"),
			},
			"deployments": {row("shop", "web", 3*time.Hour, "2/2", "2", "2", "<age>", "nginx:1.27")},
			"replicasets": {row("shop", "web-7d9f", 3*time.Hour, "2", "2", "2", "<age>")},
			"secrets":     {row("shop", "creds", time.Hour, "Opaque", "1", "<age>")},
			"namespaces": {row("", "data", 40*24*time.Hour, "Active", "<age>"),
				row("", "shop", 40*24*time.Hour, "Active", "<age>")},
		},
		objects: map[string]*unstructured.Unstructured{
			"pods/shop/web-7d9f-abcde":  podObject(),
			"secrets/shop/creds":        secretObject(),
			"deployments/shop/web":      deploymentObject(),
			"replicasets/shop/web-7d9f": replicaSetObject(), // the pods' controller, the deployment's
		},
		replicas: map[string]int32{"deployments/shop/web": 2},
		denied:   map[string]bool{},
	}
}

func withSubresources(r discovery.Resource, subs ...string) discovery.Resource {
	r.Subresources = subs
	return r
}

func deploymentObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "uid": "uid-web", "resourceVersion": "5",
			"labels":        map[string]any{"app": "web"},
			"managedFields": []any{map[string]any{"manager": "kubectl", "operation": "Update"}}},
		"spec":   map[string]any{"replicas": int64(2)},
		"status": map[string]any{"replicas": int64(2)},
	}}
}

// replicaSetObject is the deployment web's ReplicaSet, the controller of its pods (a port-forward of the
// deployment follows the pods it owns through it).
func replicaSetObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "ReplicaSet",
		"metadata": map[string]any{"name": "web-7d9f", "namespace": "shop", "uid": "uid-web-7d9f",
			"labels": map[string]any{"app": "web"},
			"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
				"name": "web", "uid": "uid-web", "controller": true}}},
		"spec": map[string]any{"replicas": int64(2)},
	}}
}

func podObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{
			"name": "web-7d9f-abcde", "namespace": "shop", "uid": "uid-web-7d9f-abcde",
			"labels":        map[string]any{"app": "web"},
			"managedFields": []any{map[string]any{"manager": "kube-controller-manager", "operation": "Update"}},
			"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet",
				"name": "web-7d9f", "uid": "uid-web-7d9f", "controller": true}},
		},
		"spec":   map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27"}}},
		"status": map[string]any{"phase": "Running"},
	}}
}

func secretObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "creds", "namespace": "shop"},
		"data":     map[string]any{"password": "aHVudGVyMg=="},
		"type":     "Opaque",
	}}
}
