package versions

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/history"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/navtest"
)

// TestScreensBindTheKeyTable: the history, diff and blame screens bind help, their key of Keys.Versions
// (enter: diff; x: reveal) and quit, as the key table writes them, on keys no global one takes. (ui's
// TestNoKeyBoundTwice counts Keys.Versions as bound here.)
func TestScreensBindTheKeyTable(t *testing.T) {
	nav := navtest.New(t, nil)
	row := tableRow("shop", "web")
	obj := deploymentVersion("5", 2, "nginx:1", "kubectl", "Apply", 0)
	for _, c := range []struct {
		screen ui.Screen
		own    keymap.KeyDef
	}{
		{NewHistory(nav, row, func() []history.Entry { return nil }), keymap.Keys.Versions.Diff},
		{newDiffView(nav, row, history.Entry{RV: "5"}), keymap.Keys.Versions.Reveal},
		{NewBlame(nav, row, obj), keymap.Keys.Versions.Reveal},
	} {
		name := c.screen.Crumb()
		want := []keymap.KeyDef{keymap.Keys.Views.Help, c.own, keymap.Keys.Views.Quit}
		got := c.screen.Bindings()
		if len(got) != len(want) {
			t.Fatalf("%s binds %+v", name, got)
		}
		for i, d := range want {
			b := got[i]
			if b.Name != d.Name || b.Label != d.Key.Label || b.Key != d.Key.Key || b.Rune != d.Key.Rune || b.Description != d.Description {
				t.Errorf("%s's binding %d is %s %q, want Keys's %s %q", name, i, b.Label, b.Name, d.Key.Label, d.Name)
			}
		}
		global := reflect.ValueOf(keymap.Keys.Global)
		for i := range global.NumField() {
			g := global.Field(i).Interface().(keymap.KeyDef)
			for _, b := range got {
				if b.Label == g.Key.Label {
					t.Errorf("%s binds %s, the global key %q", name, b.Label, g.Name)
				}
			}
		}
	}
}

// TestRevealShowsSecretData: x in the diff and in the blame of a Secret shows its data, masked until then (the
// diff of two masked values shows no change).
func TestRevealShowsSecretData(t *testing.T) {
	nav := navtest.New(t, nil)
	secret := func(rv, password string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "creds", "namespace": "shop", "resourceVersion": rv},
			"data":     map[string]any{"password": password}}}
	}
	prev, cur := history.Version{Obj: secret("1", "b2xk")}, history.Version{Obj: secret("2", "bmV3")}
	row := tableRow("shop", "creds")
	x := tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone)
	for _, s := range []interface {
		ui.Screen
		shown() string
	}{
		diffText{newDiffView(nav, row, history.Entry{RV: "2", Obj: &cur, PrevObj: &prev})},
		blameText{NewBlame(nav, row, cur.Obj).(*BlameView)},
	} {
		nav.UI(func() { nav.Push(s) })
		if text := s.shown(); strings.Contains(text, "bmV3") {
			t.Errorf("%s shows the data before x:\n%s", s.Crumb(), text)
		}
		if !nav.Press(s, x) {
			t.Fatalf("%s does not take x", s.Crumb())
		}
		if text := s.shown(); !strings.Contains(text, "password: bmV3") {
			t.Errorf("%s hides the data after x:\n%s", s.Crumb(), text)
		}
	}
}

type diffText struct{ *DiffView }

func (d diffText) shown() string { return d.text.GetText(true) }

type blameText struct{ *BlameView }

func (b blameText) shown() string { return b.text.GetText(true) }
