package ui

import (
	"slices"
	"testing"
)

// TestNamespaceNamesWatchedOnceTheCommandBarOpens: a start on one table makes no request for the namespaces
// that `:ns` completes (issue 51: a list, a watch and a metadata fill before the first table's list); the
// watch starts when the command bar opens, and Tab completes from it.
func TestNamespaceNamesWatchedOnceTheCommandBarOpens(t *testing.T) {
	h := start(t, 120, 20, func(o *Options) { o.Resource = "pods" })
	h.eventually("pods(shop)")
	watched := func() int {
		h.cluster.mu.Lock()
		defer h.cluster.mu.Unlock()
		n := 0
		for _, s := range h.cluster.sources {
			if s.Spec().GVR == namespacesResource().GVR() {
				n++
			}
		}
		return n
	}
	if n := watched(); n != 0 {
		t.Fatalf("%d namespace watches before the command bar opened, want none", n)
	}
	h.ui(h.app.openCommandBar)
	if n := watched(); n != 1 {
		t.Fatalf("%d namespace watches once the command bar opened, want 1", n)
	}
	var matches []string
	h.quietly(func() { _, matches = h.app.completeCommand("ns ") })
	if !slices.Equal(matches, []string{"data", "shop"}) {
		t.Errorf("`ns ` completes from %q, want the namespaces data and shop", matches)
	}
	h.ui(h.app.openCommandBar)
	if n := watched(); n != 1 {
		t.Errorf("%d namespace watches once the command bar opened twice, want 1", n)
	}
}
