package objectview

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"kscope/watch"
)

// TestYAMLView: the YAML of a pod under its health line (golden: the view as ui's yaml_100x30 screen showed
// it, between the app's header and its status line), managedFields shown by m, a search counted and cleared
// by esc.
func TestYAMLView(t *testing.T) {
	vt := newViewTest(t, 100, 26)
	v := vt.open(NewYAMLView, podsRes, "web-7d9f-abcde")
	vt.eventually(v, "apiVersion: v1")
	vt.golden(v, "yaml_100x26")
	vt.lacks(v, "manager: kube-controller-manager")
	vt.press(v, tcell.KeyRune, 'm')
	vt.contains(v, "manager: kube-controller-manager")
	vt.search(v, "nginx")
	vt.contains(v, "</nginx> 1/1")
	vt.nav.UI(func() {
		if !v.Escape() { // clears the search
			t.Error("esc did not clear the search")
		}
	})
	vt.lacks(v, "</nginx>")
	vt.nav.UI(func() {
		if v.Escape() { // back: no search left to clear
			t.Error("esc cleared a search again")
		}
	})
}

func TestSecretMasked(t *testing.T) {
	vt := newViewTest(t, 100, 30)
	v := vt.open(NewYAMLView, secretsRes, "creds")
	vt.eventually(v, "password: '********'")
	vt.lacks(v, "aHVudGVyMg==")
	vt.contains(v, "data masked (x)")
	vt.press(v, tcell.KeyRune, 'x')
	vt.contains(v, "aHVudGVyMg==")
	vt.contains(v, "data revealed (x)")
}

func TestYAMLSearchNextMatch(t *testing.T) {
	vt := newViewTest(t, 100, 30)
	v := vt.open(NewYAMLView, podsRes, "web-7d9f-abcde")
	vt.eventually(v, "apiVersion: v1")
	vt.search(v, "web")
	vt.contains(v, "</web> 1/6") // label, name, owner name and uid, uid, container name
	vt.press(v, tcell.KeyRune, 'n')
	vt.contains(v, "</web> 2/6")
	vt.search(v, "no-such-text")
	if errs := vt.nav.Errors(); !slices.Contains(errs, `"no-such-text" not found`) {
		t.Errorf("errors %q", errs)
	}
}

// TestYAMLHighlightsChangedLines: after an update the YAML view highlights the lines it changed, for
// yamlFlashFor on the navigator's clock; then they are shown as the others.
func TestYAMLHighlightsChangedLines(t *testing.T) {
	vt := newViewTest(t, 120, 30)
	v := vt.open(NewYAMLView, deploymentsRes, "web")
	vt.eventually(v, "replicas: 2")
	vt.cluster.put(deploymentsGVR, deploymentVersion("9", 5, "nginx:1"))
	vt.eventually(v, "replicas: 5")
	bg := func(s string) tcell.Color {
		st, ok := vt.style(v, s)
		if !ok {
			t.Fatalf("no %q on screen:\n%s", s, vt.text(v))
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
	clk := vt.nav.FakeClock()
	clk.Step(yamlFlashFor - time.Millisecond)
	if got := bg("replicas: 5"); got != tcell.GetColor(flashBackground) {
		t.Errorf("highlight gone before %v", yamlFlashFor)
	}
	clk.Step(time.Millisecond)
	deadline := time.Now().Add(wait)
	for bg("replicas: 5") == tcell.GetColor(flashBackground) {
		if time.Now().After(deadline) {
			t.Fatalf("still highlighted after %v", yamlFlashFor)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestYAMLRecordsVersionsAndOpens: each event of the YAML view's watch is handed to ObjectView.Record (the
// app's versions book); h opens the history, b the blame of the object as shown.
func TestYAMLRecordsVersionsAndOpens(t *testing.T) {
	vt := newViewTest(t, 120, 30)
	v := vt.open(NewYAMLView, deploymentsRes, "web")
	vt.eventually(v, "replicas: 2")
	vt.cluster.put(deploymentsGVR, deploymentVersion("9", 5, "nginx:1"))
	vt.eventually(v, "replicas: 5")
	vt.until("two versions recorded", func() bool {
		vt.obj.mu.Lock()
		defer vt.obj.mu.Unlock()
		return len(vt.obj.recorded) == 2 && vt.obj.recorded[1].Object.GetResourceVersion() == "9"
	})
	vt.press(v, tcell.KeyRune, 'h')
	vt.press(v, tcell.KeyRune, 'b')
	if p := vt.obj.presses(); !slices.Equal(p, []string{"history"}) {
		t.Errorf("pressed %q", p)
	}
	vt.obj.mu.Lock()
	defer vt.obj.mu.Unlock()
	if len(vt.obj.blamed) != 1 || vt.obj.blamed[0].GetResourceVersion() != "9" {
		t.Errorf("blamed %v", vt.obj.blamed)
	}
}

// TestCopyYAML: c copies the YAML as shown (managedFields hidden), naming it; before the object is read it
// says there is nothing to copy.
func TestCopyYAML(t *testing.T) {
	vt := newViewTest(t, 120, 30)
	v := vt.open(NewYAMLView, podsRes, "web-7d9f-abcde")
	vt.eventually(v, "image: nginx:1.27")
	vt.press(v, tcell.KeyRune, 'c')
	copied := vt.nav.Copied()
	if len(copied) != 1 || copied[0].What != "the YAML of web-7d9f-abcde" ||
		!strings.Contains(copied[0].Text, "name: web-7d9f-abcde\n") || strings.Contains(copied[0].Text, "managedFields") {
		t.Fatalf("copied %+v", copied)
	}
	early := NewYAMLView(vt.nav, podsRes, &watch.Row{Key: "shop/x", Namespace: "shop", Name: "x"}, vt.obj.view())
	vt.press(early, tcell.KeyRune, 'c') // (not activated: its object never read)
	if errs := vt.nav.Errors(); !slices.Contains(errs, "nothing to copy yet") {
		t.Errorf("errors %q", errs)
	}
}
