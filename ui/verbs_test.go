package ui

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/ui/verbs"
)

var deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

// startOnDeployments shows the deployments table (shop/web selected); opts may adjust the options.
func startOnDeployments(t *testing.T, opts func(*Options)) *harness {
	return start(t, 100, 30, func(o *Options) {
		o.Resource = "deployments"
		if opts != nil {
			opts(o)
		}
	})
}

// waitCalls waits until the cluster recorded a call starting with prefix.
func waitCalls(h *harness, prefix string) {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !slices.ContainsFunc(h.cluster.recorded(), func(c string) bool { return strings.HasPrefix(c, prefix) }) {
		if time.Now().After(deadline) {
			h.t.Fatalf("no %q call; calls %q\n%s", prefix, h.cluster.recorded(), h.text())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// writes returns the recorded calls that change something.
func writes(h *harness) []string {
	var out []string
	for _, c := range h.cluster.recorded() {
		if !strings.HasPrefix(c, "can ") && !strings.HasPrefix(c, "describe ") {
			out = append(out, c)
		}
	}
	return out
}

func countPrefix(calls []string, prefix string) int {
	n := 0
	for _, c := range calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

// scriptedEditor answers each launch with the next of steps (given what the editor was shown).
func scriptedEditor(t *testing.T, steps ...func(shown string) string) (verbs.EditFunc, func() []string) {
	var shown []string
	return func(content []byte) ([]byte, string, error) {
		shown = append(shown, string(content))
		if len(shown) > len(steps) {
			t.Errorf("editor opened %d times, want %d", len(shown), len(steps))
			return content, "", nil
		}
		return []byte(steps[len(shown)-1](string(content))), "", nil
	}, func() []string { return shown }
}

func relabel(s string) string { return strings.Replace(s, "app: web", "app: web2", 1) }

func TestEdit(t *testing.T) {
	unchanged := func(s string) string { return s }
	tests := []struct {
		name      string
		steps     []func(string) string
		updateErr error
		message   string
		updates   int
		reopened  string // in the second launch's header
	}{
		{name: "label change lands", steps: []func(string) string{relabel},
			message: "edited deployment web", updates: 1},
		{name: "unchanged file sends nothing", steps: []func(string) string{unchanged},
			message: "edit cancelled, no changes made"},
		{name: "empty file sends nothing", steps: []func(string) string{func(string) string { return "# nothing\n" }},
			message: "edit cancelled, saved file was empty"},
		{name: "invalid YAML reopens with the error and the text kept",
			steps:   []func(string) string{func(s string) string { return relabel(s) + "\n  bad: [\n" }, func(s string) string { return strings.Replace(s, "  bad: [\n", "", 1) }},
			message: "edited deployment web", updates: 1, reopened: "# The edited file had a syntax error"},
		{name: "a conflict reopens; saving the same text gives up",
			steps:     []func(string) string{relabel, unchanged},
			updateErr: apierrors.NewConflict(deploymentsGVR.GroupResource(), "web", errors.New("the object has been modified")),
			message:   "edit cancelled, no valid changes were saved", updates: 1, reopened: "# The object was changed since it was read"},
		{name: "a rejected change reopens",
			steps:     []func(string) string{relabel, func(s string) string { return strings.Replace(s, "app: web2", "app: web3", 1) }},
			updateErr: apierrors.NewBadRequest("spec.replicas: Invalid value"),
			message:   "edited deployment web", updates: 2, reopened: "# The server rejected the change: spec.replicas: Invalid value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edit, shown := scriptedEditor(t, tt.steps...)
			h := startOnDeployments(t, func(o *Options) {
				o.Edit = edit
				o.Cluster.(*fakeCluster).updateErr = tt.updateErr
			})
			h.press(tcell.KeyRune, 'e')
			h.eventually(tt.message)
			if n := countPrefix(writes(h), "update "); n != tt.updates {
				t.Errorf("%d updates, want %d (calls %q)", n, tt.updates, h.cluster.recorded())
			}
			first := shown()[0]
			if !strings.HasPrefix(first, "# Please edit the object below.") || strings.Contains(first, "managedFields") || strings.Contains(first, "status:") ||
				!strings.Contains(first, "resourceVersion: \"5\"") {
				t.Errorf("the editor was shown:\n%s", first)
			}
			if tt.reopened != "" {
				if len(shown()) < 2 || !strings.Contains(shown()[1], tt.reopened) || !strings.Contains(shown()[1], "app: web2") {
					t.Errorf("second launch lacks %q or the user's text:\n%s", tt.reopened, strings.Join(shown(), "\n----\n"))
				}
			}
			if tt.updates > 0 && tt.updateErr == nil {
				obj, _ := h.cluster.Get(h.app.ctx, deploymentsGVR, "shop", "web")
				if obj.GetLabels()["app"] != "web2" || obj.Object["status"] == nil {
					t.Errorf("stored %v", obj.Object)
				}
			}
		})
	}
}

func TestEditorFailureSaysSo(t *testing.T) {
	h := startOnDeployments(t, func(o *Options) {
		o.Edit = func([]byte) ([]byte, string, error) { return nil, "", errors.New("exec: \"nano\": not found") }
	})
	h.press(tcell.KeyRune, 'e')
	h.eventually(`the editor failed: exec: "nano": not found`)
	if w := writes(h); len(w) != 0 {
		t.Errorf("writes %q", w)
	}
}

func TestScale(t *testing.T) {
	for _, bad := range []string{"-1", "x", "", "2.5", "99999999999"} {
		h := startOnDeployments(t, nil)
		h.press(tcell.KeyRune, 's')
		h.eventually("scale deployments web (now 2) to:")
		h.typeText(bad + "\n")
		h.eventually("not a replica count")
		if h.app.modal != nil || len(writes(h)) != 0 {
			t.Errorf("%q: modal %v, writes %q", bad, h.app.modal != nil, writes(h))
		}
	}
	h := startOnDeployments(t, nil)
	h.press(tcell.KeyRune, 's')
	h.eventually("(now 2) to:")
	h.typeText("5\n")
	h.contains("Scale deployments web from 2 to")
	h.press(tcell.KeyEnter, 0) // Cancel is focused
	if h.app.modal != nil || len(writes(h)) != 0 {
		t.Fatalf("Enter on the dialog: modal %v, writes %q", h.app.modal != nil, writes(h))
	}
	h.press(tcell.KeyRune, 's')
	h.eventually("(now 2) to:")
	h.typeText("5\n")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("scaled deployments shop/web to 5")
	if w := writes(h); !slices.Equal(w, []string{"scale deployments/shop/web 5"}) {
		t.Errorf("writes %q", w)
	}
}

func TestScaleAndRestartApplyOnlyWhereTheyExist(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "replicasets" })
	h.press(tcell.KeyRune, 's')
	h.eventually("replicasets.apps cannot be scaled: it has no scale subresource")
	h.press(tcell.KeyRune, 'r')
	h.eventually("replicasets.apps cannot be restarted: only deployments, statefulsets and daemonsets can")
	if w := writes(h); len(w) != 0 {
		t.Errorf("writes %q", w)
	}
}

// TestRestart: r asks first with Cancel focused; Cancel sends nothing, the Restart button restarts.
func TestRestart(t *testing.T) {
	h := startOnDeployments(t, nil)
	h.press(tcell.KeyRune, 'r')
	h.waitDialog("Restart deployments web?")
	h.press(tcell.KeyEnter, 0) // Cancel is focused
	// A restart starts on the UI goroutine (its "restarting" message) before the write goes out: after the
	// press, it would already show.
	if h.app.modal != nil || len(writes(h)) != 0 {
		t.Fatalf("Enter on the dialog: modal %v, writes %q", h.app.modal != nil, writes(h))
	}
	h.lacks("restarting deployments")
	h.press(tcell.KeyRune, 'r')
	h.waitDialog("Restart deployments web?")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("restarted deployments shop/web: rollout started")
	if w := writes(h); !slices.Equal(w, []string{"restart deployments/shop/web 2026-01-01T12:00:00Z"}) {
		t.Errorf("writes %q", w)
	}
}

func TestNotPermittedVerbsAreShownAndSendNothing(t *testing.T) {
	h := startOnDeployments(t, func(o *Options) {
		o.Cluster.(*fakeCluster).denied = map[string]bool{"delete deployments shop": true, "patch deployments/scale shop": true}
	})
	h.eventually("not permitted: scale, delete")
	h.press(tcell.KeyCtrlD, 0)
	h.eventually("not permitted: you may not delete deployments shop/web (RBAC: no rule allows it)")
	h.press(tcell.KeyRune, 's')
	h.eventually("not permitted: you may not scale deployments shop/web")
	if h.app.modal != nil || h.app.bar.Active() || len(writes(h)) != 0 {
		t.Errorf("modal %v, prompt %v, writes %q", h.app.modal != nil, h.app.bar.Active(), writes(h))
	}
	if n := countPrefix(h.cluster.recorded(), "can delete deployments shop"); n != 1 {
		t.Errorf("asked %d times whether delete is allowed, want once for the view", n)
	}
	h.press(tcell.KeyRune, '?')
	h.contains("not permitted: delete the object")
	h.lacks("not permitted: edit")
}

func TestLabellingEditorIsIdempotent(t *testing.T) {
	once, _, _ := labellingEditor([]byte("metadata:\n  labels:\n    app: web\n"))
	twice, _, _ := labellingEditor(once)
	if !bytes.Equal(once, twice) || !bytes.Contains(once, []byte(`edited: "yes"`)) {
		t.Errorf("once %q twice %q", once, twice)
	}
}
