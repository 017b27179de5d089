package treeview

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/ui/navtest"
	"kscope/watch"
)

// TestSpecObjectKey: t applies to every resource and opens the tree of the object, whose enter opens the
// selected node's YAML through the session; a tree whose source cannot be built is one line on the prompt,
// nothing pushed; the spec's family holds the keys the screen binds.
func TestSpecObjectKey(t *testing.T) {
	key := Spec.Objects[0]
	if key.Applies != nil || key.Key.Key.Label != "t" {
		t.Fatalf("the tree's key %+v", key.Key)
	}
	c := fixtureCluster()
	withTree(c)
	s := navtest.NewSession(t, c)
	res, err := c.catalog.Resolve(t.Context(), "replicasets")
	if err != nil {
		t.Fatal(err)
	}
	s.UI(func() { key.Open(s, res, &watch.Row{Key: "shop/web-7d9f", Namespace: "shop", Name: "web-7d9f"}) })
	if len(s.Pushed()) != 1 {
		t.Fatalf("pushed %d screens (errors %q)", len(s.Pushed()), s.Errors())
	}
	v := s.Pushed()[0].(*View)
	waitScreen(t, s.Nav, v, 120, 26, "      ├─ Pod web-7d9f-abcde")
	s.UI(func() {
		v.table.InputHandler()(tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone), func(tview.Primitive) {})
		v.openSelected()
	})
	if y := s.YAMLs(); len(y) != 1 || y[0].Key != "shop/web-7d9f-abcde" {
		t.Errorf("enter opened the YAML of %+v, want shop/web-7d9f-abcde through the session", y)
	}
	b := v.Bindings()
	if defs := Spec.Keys.Defs; len(defs) != 3 || b[1].Name != defs[1].Name || b[2].Name != defs[2].Name {
		t.Errorf("the spec's keys %+v, the screen's %+v", defs, b)
	}

	broken := fixtureCluster()
	broken.treeErr = errors.New("no metadata client")
	s = navtest.NewSession(t, broken)
	s.UI(func() { key.Open(s, res, &watch.Row{Key: "shop/web-7d9f", Namespace: "shop", Name: "web-7d9f"}) })
	if errs := s.Errors(); len(s.Pushed()) != 0 || len(errs) != 1 || !strings.Contains(errs[0], "tree of web-7d9f: no metadata client") {
		t.Errorf("a tree that cannot be built: pushed %d, errors %q", len(s.Pushed()), errs)
	}
}
