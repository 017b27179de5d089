package versions

import (
	"strings"
	"testing"
	"time"

	"kscope/ui/navtest"
)

// TestBlameView: the blame annotates each line with its manager and the age of its last write; unowned
// fields are marked.
func TestBlameView(t *testing.T) {
	nav := navtest.New(t, nil)
	obj := readObject(t, "blame_deployment.json")
	obj.SetName("web")
	obj.SetNamespace("shop")
	nav.FakeClock().SetTime(time.Date(2026, 12, 1, 21, 34, 56, 0, time.UTC)) // 5 minutes after the patch
	v := NewBlame(nav, tableRow("shop", "web"), obj).(*BlameView)
	nav.UI(func() { nav.Push(v) })
	if title := v.text.GetTitle(); !strings.Contains(title, "blame[white] shop/web at resourceVersion 54424") {
		t.Errorf("title %q", title)
	}
	text := v.text.GetText(true)
	for _, want := range []string{
		"kubectl-patch 5m ",
		"│   replicas: 2",
		"(no manager)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("blame lacks %q:\n%s", want, text)
		}
	}
	lineOf := func(s string) string {
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, s) {
				return l
			}
		}
		return ""
	}
	if l := lineOf("  replicas: 2"); !strings.Contains(l, "kubectl-patch") {
		t.Errorf("replicas line = %q", l)
	}
	if l := lineOf("value: fast"); !strings.HasPrefix(l, "b ") {
		t.Errorf("env value line = %q", l)
	}
	if l := lineOf("uid: "); !strings.Contains(l, "(no manager)") {
		t.Errorf("uid line = %q", l)
	}
	if errs := nav.Errors(); len(errs) > 0 {
		t.Errorf("errors %q", errs)
	}
}
