package ui

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kscope/discovery"
	"kscope/kube/readonly"
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

// TestReadOnlyEveryBindingSendsNoWrite: in read-only mode every key of every view, each dialog it opens
// answered with its dangerous choice, sends no write; with the UI's own refusal off, the read-only transport
// alone still stops the delete (and the port-forward's request), and the user is told why.
func TestReadOnlyEveryBindingSendsNoWrite(t *testing.T) {
	for _, uiRefuses := range []bool{true, false} {
		writes, written := recordingServer(t)
		h := start(t, 100, 30, func(o *Options) {
			o.Resource, o.ReadOnly = "deployments", uiRefuses
			o.Cluster.(*fakeCluster).writes = writes
			o.Edit = labellingEditor
		})
		asks := map[string]bool{"delete": true, "restart": true, "scale": true}
		views := map[string][]string{"table": nil, "yaml": {"y"}, "events": {"E"}, "describe": {"d"}, "help": {"?"}, "picker": {"esc"}}
		ran := 0
		for name, path := range views {
			var keys []Binding
			h.ui(func() { openPath(h, path); keys = append(h.app.top().bindings(), h.app.globalBindings()...) })
			for _, b := range keys {
				if b.run == nil || b.Name == "quit" {
					continue
				}
				h.ui(func() { openPath(h, path) })
				h.press(b.Key, b.Rune)
				if !uiRefuses && b.Name == "scale" && name != "events" { // the prompt, once the scale is read
					h.eventually("(now 2) to:")
					h.typeText("3\n")
				}
				if !uiRefuses && b.Name == "port-forward" { // the pod's port, then the local one
					h.eventually("to pod port:")
					h.typeText("8080\n")
					h.eventually("from local port:")
					h.typeText("\n")
				}
				if !uiRefuses && asks[b.Name] && name != "events" { // the question comes after the access check
					h.until("a dialog", func() bool { return h.app.modal != nil })
				}
				var modal bool
				h.quietly(func() { modal = h.app.modal != nil })
				if modal { // the dangerous choice: Tab to it, Enter
					h.press(tcell.KeyTab, 0)
					h.press(tcell.KeyEnter, 0)
				}
				if b.denied != nil && name != "events" { // the user reads why nothing changed (events: no rows)
					h.eventuallyAny("read-only mode: ", "cannot be")
				}
				var prompt bool
				h.quietly(func() { prompt = h.app.bar.Active() })
				if prompt {
					h.press(tcell.KeyEscape, 0)
				}
				ran++
				t.Logf("%s: %s (%s)", name, b.Label, b.Name)
			}
		}
		if w := written(); len(w) != 0 || ran < 20 {
			t.Errorf("UI refusal %v: %d bindings run, writes reached the server: %q", uiRefuses, ran, w)
		}
	}
}

// labellingEditor adds a label to the object it is given, unless it is there already (then saving the
// same text again gives up).
func labellingEditor(content []byte) ([]byte, string, error) {
	if bytes.Contains(content, []byte("edited: \"yes\"")) {
		return content, "", nil
	}
	return bytes.Replace(content, []byte("  labels:\n"), []byte("  labels:\n    edited: \"yes\"\n"), 1), "", nil
}

// openPath shows the deployments table again, then presses the keys of path (y: YAML, e: events, ?: help, esc:
// back to the picker). UI goroutine.
func openPath(h *harness, path []string) {
	a := h.app
	a.popTo(1)
	a.bar.Close()
	if a.modal != nil {
		a.closeModal()
	}
	a.openResource(a.catalogEntry(discovery.Resource{Group: "apps", Version: "v1", Name: "deployments"}), "")
	for _, k := range path {
		switch k {
		case "esc":
			a.pop()
		default:
			a.capture(tcell.NewEventKey(tcell.KeyRune, rune(k[0]), tcell.ModNone))
		}
	}
}
