package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/watch"
)

// TestTreeKeyOpensTheRegisteredScreen: `t` on a table, and in the YAML view, opens the tree screen registered
// in Options.Registered (its ObjectKey) with the object and the session's openers (its YAML view, the catalog's resource of a kind);
// esc goes back; an error of the opener is said on the prompt line and opens nothing; without one
// registered, `t` is not bound.
func TestTreeKeyOpensTheRegisteredScreen(t *testing.T) {
	var res discovery.Resource
	var row *watch.Row
	var resourceForKind func(string, string) (discovery.Resource, error)
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Registered = []ScreenSpec{stubRoles(), stubForwards, stubRolloutsSpec, treeSpec(func(s Session, r discovery.Resource, w *watch.Row) (Screen, error) {
			res, row, resourceForKind = r, w, s.ResourceForKind
			return stubTree(s, r, w)
		})}
	})
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyRune, 't')
	h.eventually("tree stub of pods shop/web-7d9f-abcde")
	if res.Name != "pods" || row.Name != "web-7d9f-abcde" || row.Namespace != "shop" {
		t.Fatalf("opened with %s %+v, want pods shop/web-7d9f-abcde", res.Name, row)
	}
	var owner discovery.Resource
	var err error
	h.ui(func() { owner, err = resourceForKind("apps/v1", "ReplicaSet") })
	if err != nil || owner.Name != "replicasets" {
		t.Errorf("resourceForKind(apps/v1, ReplicaSet) = %s, %v; want replicasets", owner.Name, err)
	}
	// The opener of the YAML view (the stub's Enter, as the real screen's on a node).
	h.press(tcell.KeyEnter, 0)
	waitFor(t, h, "name: web-7d9f-abcde")
	h.press(tcell.KeyRune, 't') // from the YAML view too
	h.eventually("tree stub of pods shop/web-7d9f-abcde")
	h.press(tcell.KeyEscape, 0)
	waitFor(t, h, "name: web-7d9f-abcde")
	h.press(tcell.KeyEscape, 0)
	h.eventually("tree stub of pods shop/web-7d9f-abcde")
	h.press(tcell.KeyEscape, 0)
	h.eventually("pods(shop)[3]")

	failing := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Registered = []ScreenSpec{treeSpec(func(_ Session, _ discovery.Resource, w *watch.Row) (Screen, error) {
			return nil, fmt.Errorf("tree of %s: no metadata API", w.Name)
		})}
	})
	failing.press(tcell.KeyRune, 't')
	failing.eventually("tree of api-5c4b-zzzzz: no metadata API")
	failing.quietly(func() {
		if _, ok := failing.app.top().(*livetable.Table); !ok {
			t.Errorf("a failed tree left %T on top", failing.app.top())
		}
	})

	bare := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.Registered = []ScreenSpec{stubForwards, stubRolloutsSpec} })
	bare.press(tcell.KeyRune, 't')
	bare.contains("pods(shop)[3]")
	bare.press(tcell.KeyRune, '?')
	if strings.Contains(bare.text(), "everything it owns") {
		t.Error("the help lists `t` with no tree screen registered")
	}
}

// stubTree is the tests' tree screen (the real one, package ui/treeview, imports ui): a line naming the
// object, with the real screen's keys, Enter and y opening the object's YAML through the session.
func stubTree(s Session, res discovery.Resource, row *watch.Row) (Screen, error) {
	open := func() { s.OpenYAML(res, row) }
	return &stubScreen{nav: s, text: tview.NewTextView().SetText("tree stub of " + res.Name + " " + row.Key),
		keys: []keymap.Binding{stubTreeOpen.Bind(open), stubTreeYAML.Bind(open)}}, nil
}
