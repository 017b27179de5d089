package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/ui/apply"
)

// webManifest writes deployment shop/web with 3 replicas (the fixture has 2) and returns its path.
func webManifest(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "web.yaml")
	text := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {app: web}\nspec:\n  replicas: 3\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// applies returns the applies recorded (dry runs among them).
func applies(c *fakeCluster) []string {
	var out []string
	for _, call := range c.recorded() {
		if strings.HasPrefix(call, "apply ") {
			out = append(out, call)
		}
	}
	return out
}

// TestApplyShowsTheDryRunThenApplies: `:apply FILE` asks whether the user may patch the object, dry-runs it
// and shows the change (the removed and added lines); a asks (Cancel focused: nothing applied), and the
// confirmed apply is sent and said.
func TestApplyShowsTheDryRunThenApplies(t *testing.T) {
	h := start(t, 120, 35, func(o *Options) { o.Resource = "deployments" })
	h.command("apply " + webManifest(t))
	h.eventually("change    deployments shop/web")
	h.eventually("-   replicas: 2")
	h.eventually("+   replicas: 3")
	h.eventually("0 to create  1 to change  0 unchanged")
	calls := h.cluster.recorded()
	if !slices.Contains(calls, "can patch deployments shop") {
		t.Errorf("no access question before the dry run: %q", calls)
	}
	if got := applies(h.cluster); !slices.Equal(got, []string{"apply deployments/shop/web dry-run"}) {
		t.Fatalf("applies %q, want the dry run only", got)
	}
	h.press(tcell.KeyRune, 'a')
	h.waitDialog("Apply 1 objects (0 to create, 1 to")
	h.press(tcell.KeyEnter, 0) // Cancel has the focus
	h.until("the dialog closed", func() bool { return h.app.modal == nil })
	if got := applies(h.cluster); len(got) != 1 {
		t.Fatalf("Cancel applied: %q", got)
	}
	h.press(tcell.KeyRune, 'a')
	h.waitDialog("Apply 1 objects")
	h.burst("\t\n")
	h.eventually("applied: configured deployments shop/web")
	if got := applies(h.cluster); !slices.Equal(got, []string{"apply deployments/shop/web dry-run", "apply deployments/shop/web"}) {
		t.Errorf("applies %q", got)
	}
}

// TestApplyRefusedReadOnly: in read-only mode `:apply` and ctrl-n refuse in one line and call nothing; with
// the UI's refusal off, the read-only transport refuses the dry run's PATCH before it leaves the process.
func TestApplyRefusedReadOnly(t *testing.T) {
	for _, uiRefuses := range []bool{true, false} {
		writes, written := recordingServer(t)
		h := start(t, 120, 35, func(o *Options) {
			o.ReadOnly = uiRefuses
			o.Resource = "deployments"
			o.Edit = labellingEditor
			o.Cluster.(*fakeCluster).writes = writes
		})
		want := "read-only mode: refusing to apply"
		if !uiRefuses {
			want = "nothing applied: deployments shop/web: dry run: read-only mode: PATCH"
		}
		h.command("apply " + webManifest(t))
		h.until(want, func() bool { return shows(h, want) })
		h.press(tcell.KeyCtrlN, 0)
		if uiRefuses {
			h.until("the key's refusal", func() bool {
				return shows(h, "read-only mode: refusing to apply a new object from deployments shop/web")
			})
			if got := applies(h.cluster); len(got) != 0 {
				t.Errorf("the UI applied in read-only mode: %q", got)
			}
		} else {
			h.until("the copy's dry run", func() bool { return len(applies(h.cluster)) == 2 })
			h.until(want, func() bool { return shows(h, "apply the new object: "+want) })
		}
		if w := written(); len(w) != 0 {
			t.Errorf("ui refuses %v: writes reached the server: %q", uiRefuses, w)
		}
	}
}

// TestNewFromTheSelectedObject: ctrl-n opens the object without what the server sets; the saved copy is
// dry-run (a create: the fake's Get of the new name fails) and an unchanged copy applies nothing.
func TestNewFromTheSelectedObject(t *testing.T) {
	var shown string
	h := start(t, 120, 35, func(o *Options) {
		o.Resource = "deployments"
		o.Edit = func(content []byte) ([]byte, string, error) {
			shown = string(content)
			return content, "", nil
		}
	})
	h.eventually("web")
	h.press(tcell.KeyCtrlN, 0)
	h.eventually("new from deployments shop/web: unchanged, nothing applied")
	for _, gone := range []string{"uid:", "resourceVersion:", "managedFields", "status:", "replicas: 2\n  status"} {
		if strings.Contains(shown, gone) {
			t.Errorf("the copy has %q:\n%s", gone, shown)
		}
	}
	for _, kept := range []string{"# A new object from deployments shop/web", "name: web", "namespace: shop", "app: web", "replicas: 2"} {
		if !strings.Contains(shown, kept) {
			t.Errorf("the copy lacks %q:\n%s", kept, shown)
		}
	}
	if got := applies(h.cluster); len(got) != 0 {
		t.Errorf("an unchanged copy applied: %q", got)
	}
}

// TestApplyRefusesAFileOverTheLimit: `:apply` of a file larger than the limit is read off the UI goroutine
// and refused in one line naming the limit; the apply screen of the read closes, and nothing is sent.
func TestApplyRefusesAFileOverTheLimit(t *testing.T) {
	h := start(t, 120, 35, func(o *Options) { o.Resource = "deployments" })
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, apply.MaxBytes+1); err != nil { // a hole: no disk used
		t.Fatal(err)
	}
	var table Screen
	h.quietly(func() { table = h.app.top() })
	h.command("apply " + path)
	want := "apply " + path + ": refused: more than 16 MiB (the limit of :apply)"
	h.until(want, func() bool { return shows(h, want) && h.app.top() == table })
	if got := applies(h.cluster); len(got) != 0 {
		t.Errorf("a refused read was dry-run: %q", got)
	}
}

// TestApplyEscCancelsTheRead: esc on the apply screen of a read in progress (typed with the command, before
// the read can answer) goes back, says that nothing is applied, and the read's answer is dropped: no dry
// run, no view of one.
func TestApplyEscCancelsTheRead(t *testing.T) {
	h := start(t, 120, 35, func(o *Options) { o.Resource = "deployments" })
	path := webManifest(t)
	var table Screen
	h.quietly(func() { table = h.app.top() })
	h.ui(func() { // one turn of the UI goroutine: the read's answer comes after the esc
		for _, r := range ":apply " + path {
			h.deliver(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
		}
		h.deliver(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone))
		h.deliver(tcell.NewEventKey(tcell.KeyEscape, 0, tcell.ModNone))
	})
	want := "apply " + path + ": read cancelled, nothing applied"
	h.until(want, func() bool { return shows(h, want) && h.app.top() == table && h.app.pending.Load() == 0 })
	h.sync()
	if got := applies(h.cluster); len(got) != 0 {
		t.Errorf("a cancelled read was dry-run: %q", got)
	}
	if !shows(h, want) {
		t.Errorf("the read's answer replaced %q", want)
	}
}
