package rollouts

import (
	"testing"

	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/navtest"
)

// TestSpecObjectKey: shift-r is offered on deployments, statefulsets and daemonsets only, and opens the screen
// of the object with the session's guard (an undo the guard refuses is refused); the spec's family holds the
// keys the screen binds.
func TestSpecObjectKey(t *testing.T) {
	key := Spec.Objects[0]
	for _, tt := range []struct {
		res  discovery.Resource
		want bool
	}{
		{deployments, true},
		{discovery.Resource{Group: "apps", Name: "statefulsets"}, true},
		{discovery.Resource{Group: "apps", Name: "daemonsets"}, true},
		{discovery.Resource{Group: "apps", Name: "replicasets"}, false},
		{discovery.Resource{Version: "v1", Name: "pods"}, false},
		{discovery.Resource{Group: "shop.example.com", Name: "deployments"}, false},
	} {
		if got := key.Applies(tt.res); got != tt.want {
			t.Errorf("Applies(%s) = %v, want %v", tt.res.FullName(), got, tt.want)
		}
	}
	s := navtest.NewSession(t, &rollouts{})
	refused := false
	s.Guard = ui.WriteGuard{Permitted: func(string, func()) { refused = true }}
	s.UI(func() { key.Open(s, deployments, web) })
	s.Wait()
	p := s.Pushed()
	if len(p) != 1 {
		t.Fatalf("pushed %d screens", len(p))
	}
	v := p[0].(*View)
	s.UI(func() {
		v.table.Select(1, 0)
		v.undoSelected()
	})
	if !refused || v.res.Name != "deployments" || v.row != web {
		t.Errorf("the screen of %s %v, its undo through the session's guard: %v", v.res.Name, v.row, refused)
	}
	b := v.Bindings()
	if defs := Spec.Keys.Defs; len(defs) != 3 || defs[0].Name != key.Key.Name || b[1].Name != defs[1].Name || b[2].Name != defs[2].Name {
		t.Errorf("the spec's keys %+v, the screen's %+v", defs, b)
	}
}
