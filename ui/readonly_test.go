package ui

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kscope/cluster"
	"kscope/kube/readonly"
	"kscope/ui/keymap"
)

// recordingServer answers every request with a 404 Status and records the ones that are not reads.
func recordingServer(t *testing.T) (dynamic.Interface, func() []string) {
	var mu sync.Mutex
	var writes []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			mu.Lock()
			writes = append(writes, r.Method+" "+r.URL.Path)
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`))
	}))
	t.Cleanup(srv.Close)
	return dynamic.NewForConfigOrDie(readonly.Wrap(&rest.Config{Host: srv.URL})), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), writes...)
	}
}

// viewPath is how a test reaches a view: a command line (":pods"; "" stays on the picker), then keys.
type viewPath struct {
	command string
	keys    []string // one character each, or "esc", "enter"
	want    string   // the view's type, as %T prints it
	noRows  bool     // the view has no object to act on
}

// everyView reaches each kind of view kscope has: tables of a workload, of pods and of events; the YAML,
// describe, tree, logs, help, port-forward views, the resource picker, and the screens of packages of their own
// (history, blame, pulse, YAML, describe) as the stubs ui's tests register.
// TestReadOnlyEveryBindingSendsNoWrite fails when one of them is not reached.
var everyView = []viewPath{
	{"deployments", nil, "*livetable.Table", false},
	{"deployments", []string{"y"}, "*ui.stubObjectScreen", false}, // (the real YAML and describe views, in ui/objectview, offer these object keys and only reads of their own)
	{"deployments", []string{"y", "b"}, "*ui.stubScreen", false},  // (the real blame, history and diff screens, in ui/versions, offer no write)
	{"deployments", []string{"d"}, "*ui.stubObjectScreen", false},
	{"deployments", []string{"E"}, "*livetable.Table", true},
	{"deployments", []string{"h"}, "*ui.stubScreen", false},
	{"deployments", []string{"t"}, "*ui.stubScreen", false}, // (the real tree screen, in ui/treeview, offers the same keys)
	{"deployments", []string{"i"}, "*ui.stubScreen", false}, // (the real pulse screen, in ui/pulse, offers the same help and quit)
	{"deployments", []string{"?"}, "*ui.HelpView", false},
	{"deployments", []string{"esc"}, "*picker.Picker", false},
	{"pods", nil, "*livetable.Table", false},
	{"pods", []string{"l"}, "*ui.stubLogsScreen", false}, // (the real logs screen, in ui/logview, offers the same keys)
	{"pods", []string{"y"}, "*ui.stubObjectScreen", false},
	{"pods", []string{"d"}, "*ui.stubObjectScreen", false},
	{"pods", []string{"t"}, "*ui.stubScreen", false},
	{"nodes", nil, "*livetable.Table", false},    // cordon, uncordon, drain, debug
	{"cronjobs", nil, "*livetable.Table", false}, // trigger, suspend, set image
	{"pf", nil, "*ui.stubScreen", false},         // (the real :pf screen, in ui/portforwards, stops a forward after asking: no write)
}

// viewTypes are the view types everyView must reach (every type with bindings()).
var viewTypes = []string{"*livetable.Table", "*ui.stubObjectScreen", "*ui.stubScreen",
	"*ui.stubLogsScreen", "*ui.HelpView", "*picker.Picker"}

// writeNames are the bindings that would change the cluster.
var writeNames = map[string]bool{"delete": true, "edit": true, "scale": true, "restart": true, "shell": true, "attach": true, "port-forward": true,
	"cordon": true, "uncordon": true, "drain": true, "trigger": true, "suspend": true, "kill": true, "set image": true,
	"labels": true, "debug": true, "new from": true}

// writeCalls are the fake cluster's calls that would change something.
func writeCalls(calls []string) []string {
	var out []string
	for _, c := range calls {
		verb, _, _ := strings.Cut(c, " ")
		switch verb {
		case "scale", "restart", "update", "exec", "attach", "port-forward", "cordon", "drain", "trigger", "suspend", "kill",
			"set-image", "label", "debug", "debug-node", "apply":
			out = append(out, c)
		}
	}
	return out
}

// TestReadOnlyEveryBindingSendsNoWrite: in read-only mode every key of every view (and the global keys in
// each), each dialog it opens answered with its dangerous choice and each question with a value, sends no
// write: the UI refuses before it calls the cluster, and the user reads why. With the UI's own refusal
// off, the read-only transport alone still stops each write (delete, update, scale, restart, the shell's
// exec, the attachment's attach and the port-forward's request) before the server. Each key runs on the
// path's view as opening the path leaves it (reopen).
func TestReadOnlyEveryBindingSendsNoWrite(t *testing.T) {
	for _, uiRefuses := range []bool{true, false} {
		t.Run(fmt.Sprintf("ui refuses %v", uiRefuses), func(t *testing.T) {
			writes, written := recordingServer(t)
			h := start(t, 120, 35, func(o *Options) {
				o.ReadOnly = uiRefuses
				c := o.Cluster.(*fakeCluster)
				c.writes = writes
				for _, r := range c.rows["pods"] { // every pod row has its object: whichever is selected acts
					pod := podObject()
					pod.SetNamespace(r.Namespace)
					pod.SetName(r.Name)
					pod.SetUID(r.UID)
					c.objects[objectKey(podsGVR, r.Namespace, r.Name)] = pod
				}
				o.Edit = labellingEditor
				withNodes(c)
				withCronJobs(c)
				for _, r := range c.rows["nodes"] { // (labels and annotations read the object first)
					c.objects[objectKey(nodesGVR, "", r.Name)] = &unstructured.Unstructured{Object: map[string]any{
						"apiVersion": "v1", "kind": "Node", "metadata": map[string]any{"name": r.Name, "uid": string(r.UID),
							"labels": map[string]any{"kubernetes.io/hostname": r.Name}}}} // (labellingEditor's change, for new from)
				}
				c.objects["deployments/shop/web"].Object["spec"].(map[string]any)["template"] = map[string]any{"spec": map[string]any{
					"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27"}}}}
				c.drainPlan = cluster.DrainPlan{Evict: []string{"shop/web-1"}}
			})
			reached := map[string]bool{}
			ran, refusedSeen := 0, map[string]bool{}
			for _, p := range everyView {
				var keys []keymap.Binding
				got := openPath(h, p)
				reached[got] = true
				if got != p.want {
					t.Errorf("%s %v: reached %s, want %s", p.command, p.keys, got, p.want)
					continue
				}
				h.quietly(func() { keys = append(h.app.top().Bindings(), h.app.globalBindings()...) })
				at := noteOpened(h, p) // the path's views as opening it left them
				kept := true           // the key before left them as it found them
				for _, b := range keys {
					if !b.Active() || b.Name == "quit" {
						continue
					}
					// the answers to the keys before are handled first: a late one (the logs of a deployment
					// without a selector) would otherwise replace this key's refusal on the status line
					h.until("the answers to the keys before", func() bool { return h.app.pending.Load() == 0 })
					at = reopen(h, p, at, kept)
					h.press(b.Key, b.Rune)
					answer(h, b, !uiRefuses && !p.noRows) // the UI refusing answers at once; the server is asked first
					if writeNames[b.Name] && !p.noRows {  // the user reads why nothing changed
						h.until("the refusal of "+b.Name+" in "+p.want, func() bool { return shows(h, "read-only mode: ", "cannot be") })
						h.quietly(func() { refusedSeen[b.Name] = refusedSeen[b.Name] || shows(h, "read-only mode: ") })
					}
					kept = keepsView[b.Name]
					ran++
				}
			}
			for _, typ := range viewTypes {
				if !reached[typ] {
					t.Errorf("no path reaches a %s: its bindings were not run", typ)
				}
			}
			if w := written(); len(w) != 0 {
				t.Errorf("%d bindings run, writes reached the server: %q", ran, w)
			}
			calls := writeCalls(h.cluster.recorded())
			if uiRefuses && (len(calls) != 0 || len(h.cluster.deleted()) != 0) {
				t.Errorf("the UI called the cluster to write: %q, deletes %q", calls, h.cluster.deleted())
			}
			if !uiRefuses {
				// the transport was what stopped them: each kind of write was sent and refused
				for _, verb := range []string{"scale", "restart", "update", "exec", "attach", "port-forward", "cordon", "drain",
					"trigger", "suspend", "kill", "set-image", "label", "debug", "debug-node", "apply"} {
					if !slices.ContainsFunc(calls, func(c string) bool { return strings.HasPrefix(c, verb+" ") }) {
						t.Errorf("no %s reached the transport: the test did not try it (calls %q)", verb, calls)
					}
				}
				if len(h.cluster.deleted()) == 0 {
					t.Error("no delete reached the transport: the test did not try it")
				}
			}
			for name := range writeNames {
				if !refusedSeen[name] {
					t.Errorf("%s: the user was not told it was refused", name)
				}
			}
			t.Logf("UI refusal %v: %d bindings run", uiRefuses, ran)
		})
	}
}

// keepsView names the bindings that leave the view they run on as it was, once what they open (a view, a
// dialog, a prompt) is closed. The bindings not named (sort, wide, all namespaces, managedFields, reveal,
// follow, back, ...) change that view, or close it.
var keepsView = map[string]bool{
	"help": true, "command": true, "filter": true, "search": true, "open": true, "yaml": true, "describe": true,
	"history": true, "blame": true, "diff": true, "tree": true, "pulse": true, "events": true, "owner": true,
	"logs": true, "previous logs": true, "copy": true, "save": true, "edit": true, "scale": true, "restart": true,
	"delete": true, "shell": true, "attach": true, "port-forward": true, "stop": true, "cordon": true, "uncordon": true, "drain": true,
	"trigger": true, "suspend": true, "kill": true, "set image": true, "labels": true, "debug": true, "new from": true,
}

// openedPath is a path's views as opening the path left them, and the screen they showed then.
type openedPath struct {
	stack  []Screen
	screen string
}

// reopen gives the next key p's view as opening p leaves it, the cheapest way: opening the whole path again
// is most of this test's time (each view opened asks its reads and, writable, its access questions again,
// and each answer draws the whole screen: milliseconds, ten times more with -race). at is what the key
// before found (zero: nothing yet), kept whether it left that view as it found it (keepsView):
//   - kept: closing what the key opened on top (a dialog, the prompt, views), as esc would, gives the view
//     back, if the views under it are still the path's;
//   - not kept: the view is opened again from the views under it, when those are still the path's and
//     each key of p opened one view; it counts if the screen is then the one opening the path showed;
//   - else, the whole path is opened again.
func reopen(h *harness, p viewPath, at openedPath, kept bool) openedPath {
	h.t.Helper()
	switch {
	case at.stack == nil:
	case kept:
		if backTo(h, at.stack) {
			h.until("the answers to going back to "+p.want, func() bool { return h.app.pending.Load() == 0 })
			return at
		}
	case reopensFromBelow(p, at.stack):
		if backTo(h, at.stack[:len(at.stack)-1]) && pressKeys(h, p.keys[len(p.keys)-1:]) {
			h.until("the answers to opening "+p.want+" again", func() bool { return h.app.pending.Load() == 0 })
			if viewScreen(h) == at.screen {
				h.quietly(func() { at.stack = slices.Clone(h.app.stack) })
				return at
			}
		}
	}
	if openPath(h, p) != p.want {
		h.until("the answers to opening "+p.want, func() bool { return h.app.pending.Load() == 0 })
		return openedPath{}
	}
	return noteOpened(h, p)
}

// noteOpened notes the views of p just opened, and their screen once the answers to opening them are handled
// (if reopen may compare it).
func noteOpened(h *harness, p viewPath) openedPath {
	h.t.Helper()
	h.until("the answers to opening "+p.want, func() bool { return h.app.pending.Load() == 0 })
	var at openedPath
	h.quietly(func() { at.stack = slices.Clone(h.app.stack) })
	if reopensFromBelow(p, at.stack) {
		at.screen = viewScreen(h)
	}
	return at
}

// reopensFromBelow tells whether p's view can be opened again from the views under it (stack, as opening p
// left it): each key of p opened one view above the picker and the command's view.
func reopensFromBelow(p viewPath, stack []Screen) bool {
	return len(p.keys) > 0 && len(stack) == 2+len(p.keys)
}

// backTo closes what is open on top of views (a dialog, the prompt, views), as esc would, and tells whether
// views are then the stack.
func backTo(h *harness, views []Screen) bool {
	h.t.Helper()
	intact := false
	h.quietly(func() {
		a := h.app
		if a.modal != nil {
			a.closeModal()
		}
		a.bar.Close()
		if len(a.stack) < len(views) || !slices.Equal(a.stack[:len(views)], views) {
			return
		}
		if len(a.stack) > len(views) {
			a.popTo(len(views) + 1) // (the views between are closed without being shown)
			a.pop()                 // shows the top of views again
		}
		intact = true
	})
	return intact
}

// viewScreen is the screen now without its prompt line, where a key's message stays until the next key.
func viewScreen(h *harness) string {
	lines := strings.Split(h.textNow(), "\n")
	var hgt int
	h.quietly(func() { _, hgt = h.screen.Size() })
	return strings.Join(slices.Delete(lines, hgt-2, hgt-1), "\n")
}

// answer takes what a binding opened to its end: a question gets a value (the scale's replicas, the
// port-forward's ports, a container), a dialog its dangerous choice, and the command bar is closed; wait:
// the question comes once the server has answered whether the user may.
func answer(h *harness, b keymap.Binding, wait bool) {
	h.t.Helper()
	asks := map[string]bool{"delete": true, "restart": true, "scale": true, "port-forward": true, "cordon": true,
		"uncordon": true, "drain": true, "trigger": true, "suspend": true, "kill": true, "set image": true,
		"labels": true, "debug": true}
	if wait && asks[b.Name] { // the question comes after the access check
		h.until(b.Name+"'s question", func() bool { return h.app.modal != nil || h.app.bar.Active() || shows(h, "not found", "cannot be") })
	}
	for range 4 { // a question may lead to another
		var modal, prompt bool
		var text string
		h.quietly(func() { modal, prompt = h.app.modal != nil, h.app.bar.Active() })
		if prompt || modal { // (reading the screen draws it: only when the question is needed)
			text = h.text()
		}
		switch { // (the keys of an answer go as one burst: one draw)
		case modal && strings.Contains(text, "Grace period"): // the drain dialog: Tab past its 5 fields and Cancel
			h.burst("\t\t\t\t\t\t\n")
		case modal: // the dangerous choice: Tab to it, Enter
			h.burst("\t\n")
		case prompt && strings.Contains(text, "to pod port:"):
			h.burst("8080\n")
		case prompt && strings.Contains(text, "from local port:"):
			h.burst("\n")
		case prompt && strings.Contains(text, "KEY=VALUE sets"):
			h.burst("kscope=ro\n")
		case prompt && strings.Contains(text, "image of container"):
			h.burst("9\n")
		case prompt && strings.Contains(text, "image of the debug container"):
			h.burst("\n")
		case prompt && strings.Contains(text, ") to:"):
			h.burst("3\n")
		case prompt:
			h.press(tcell.KeyEscape, 0)
		default:
			return
		}
		if wait && asks[b.Name] {
			h.until(b.Name+" answered", func() bool {
				return h.app.modal != nil || h.app.bar.Active() || shows(h, "read-only mode: ", "not found", "cannot be")
			})
		}
	}
}

// shows tells whether the status line's message holds one of texts. UI goroutine only.
func shows(h *harness, texts ...string) bool {
	m := h.app.bar.ShownMessage()
	return slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(m, t) })
}

// labellingEditor adds a label to the object it is given, unless it is there already (then saving the
// same text again gives up).
func labellingEditor(content []byte) ([]byte, string, error) {
	if bytes.Contains(content, []byte("edited: \"yes\"")) {
		return content, "", nil
	}
	return bytes.Replace(content, []byte("  labels:\n"), []byte("  labels:\n    edited: \"yes\"\n"), 1), "", nil
}

// openPath goes back to the picker, runs p's command and presses its keys, and returns the type of the
// view then on top (once it is there: a key's view may open after a read). A view the key before asked
// for may open meanwhile, on top of the path's: then it goes again (three times at most).
func openPath(h *harness, p viewPath) string {
	h.t.Helper()
	var typ string
	for range 3 {
		if typ = openPathOnce(h, p); typ == p.want {
			break
		}
	}
	return typ
}

func openPathOnce(h *harness, p viewPath) string {
	h.t.Helper()
	h.quietly(func() {
		a := h.app
		if a.modal != nil {
			a.closeModal()
		}
		a.bar.Close()
		a.popTo(1)
	})
	if p.command != "" {
		h.command(p.command)
	}
	if !pressKeys(h, p.keys) {
		return "" // a view opened late on top of the path's: go again
	}
	var typ string
	h.quietly(func() { typ = fmt.Sprintf("%T", h.app.top()) })
	return typ
}

// pressKeys presses keys (one character each, or "esc", "enter"), each until the view on top changes, and
// tells whether each did.
func pressKeys(h *harness, keys []string) bool {
	h.t.Helper()
	for _, k := range keys {
		var before Screen
		h.quietly(func() { before = h.app.top() })
		ev := tcell.NewEventKey(tcell.KeyRune, rune(k[0]), tcell.ModNone)
		switch k {
		case "esc":
			ev = tcell.NewEventKey(tcell.KeyEscape, 0, tcell.ModNone)
		case "enter":
			ev = tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
		}
		// pressed until the view opens: a view that reads first (the YAML view's object) says "not yet"
		opened := func() bool {
			h.app.capture(ev)
			if h.app.top() == before && ev.Key() == tcell.KeyEnter {
				if handler := h.app.root.InputHandler(); handler != nil {
					handler(ev, func(p tview.Primitive) { h.app.tv.SetFocus(p) })
				}
			}
			return h.app.top() != before
		}
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			var ok bool
			h.quietly(func() { ok = opened() })
			if ok {
				break
			}
			if time.Now().After(deadline) {
				return false
			}
		}
	}
	return true
}

// TestReadOnlyHelpSaysWhatItCovers: in read-only mode `?` says what read-only covers, plugins and the
// editor included; writable, it says nothing of it.
func TestReadOnlyHelpSaysWhatItCovers(t *testing.T) {
	for _, readOnly := range []bool{true, false} {
		h := start(t, 200, 30, func(o *Options) { o.ReadOnly, o.Resource = readOnly, "deployments" })
		h.press(tcell.KeyRune, '?')
		h.eventually("help")
		if got := h.has("through kscope's read-only proxy"); got != readOnly {
			t.Errorf("read-only %v: help tells what read-only covers: %v\n%s", readOnly, got, h.text())
		}
	}
}

// has tells whether the screen shows substr now.
func (h *harness) has(substr string) bool { return strings.Contains(h.text(), substr) }
