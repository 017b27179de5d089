package portforwards

import (
	"slices"
	"testing"
	"time"

	"kscope/ui/navtest"
)

// TestSpecCommand: `:pf` and `:portforwards` open the view over the session's forwards; the family of keys
// the spec declares is the one the view binds.
func TestSpecCommand(t *testing.T) {
	s := navtest.NewSession(t, nil)
	s.List.Add("127.0.0.1:8080", "shop/web-abc:8080", time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), func() {})
	cmd := Spec.Commands[0]
	if !slices.Equal(cmd.Names, []string{"pf", "portforwards"}) || cmd.Args {
		t.Fatalf("command %v (args %v)", cmd.Names, cmd.Args)
	}
	s.UI(func() { cmd.Run(s, nil) })
	p := s.Pushed()
	if len(p) != 1 {
		t.Fatalf("pushed %d screens", len(p))
	}
	v := p[0].(*View)
	defer v.Close()
	if v.list != &s.List || len(navtest.TableRows(v.table)) != 2 {
		t.Errorf("the view lists %v, not the session's forwards", navtest.TableRows(v.table))
	}
	if defs := Spec.Keys.Defs; len(defs) != 1 || defs[0].Name != v.Bindings()[1].Name || Spec.Keys.Screen != "ui/portforwards" {
		t.Errorf("the spec's keys %+v are not the view's %+v", Spec.Keys, v.Bindings())
	}
}
