package ui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

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
