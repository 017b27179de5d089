package pulse

import (
	"testing"

	"kscope/ui/navtest"
	"kscope/watch"
)

// TestSpecTableKey: i on a live table opens the pulse of the table's rows, titled as the table; the spec's
// family holds its one key.
func TestSpecTableKey(t *testing.T) {
	key := Spec.Tables[0]
	if key.Key.Key.Label != "i" || len(Spec.Keys.Defs) != 1 || Spec.Keys.Defs[0].Name != key.Key.Name {
		t.Fatalf("the pulse's key %+v, family %+v", key.Key, Spec.Keys)
	}
	s := navtest.NewSession(t, nil)
	src := watch.NewStaticSource(watch.Spec{}, nil)
	s.UI(func() { key.Open(s, "pods(shop)", src) })
	p := s.Pushed()
	if len(p) != 1 {
		t.Fatalf("pushed %d screens", len(p))
	}
	if v := p[0].(*View); v.label != "pods(shop)" || v.src != src {
		t.Errorf("the pulse of %q over %v, want the table's", v.label, v.src)
	}
}
