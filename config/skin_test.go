package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestColorAsK9sParsesIt: names (any case), #rrggbb, default and "-" are colors; empty is unset.
func TestColorAsK9sParsesIt(t *testing.T) {
	for _, tt := range []struct {
		in   Color
		want tcell.Color
		ok   bool
	}{
		{"dodgerblue", tcell.ColorDodgerBlue, true},
		{"DodgerBlue", tcell.ColorDodgerBlue, true},
		{"#ff0000", tcell.NewHexColor(0xff0000), true},
		{"default", tcell.ColorDefault, true},
		{"-", tcell.ColorDefault, true},
		{"", tcell.ColorDefault, false},
		{"notacolor", tcell.ColorDefault, false},
		{"#12345", tcell.ColorDefault, false},
	} {
		if got, ok := tt.in.TCell(); got != tt.want || ok != tt.ok {
			t.Errorf("%q: %v %v, want %v %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestLoadSkin: a k9s skin (with YAML anchors, as the published ones use), kscope's folder first; missing,
// broken and wrong-colored skins are one Problem each.
func TestLoadSkin(t *testing.T) {
	root := t.TempDir()
	d := Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s")}
	write(t, filepath.Join(d.K9s, "skins"), "dracula.yaml", `foreground: &foreground "#f8f8f2"
pink: &pink "#ff79c6"
k9s:
  body:
    fgColor: *foreground
    bgColor: default
  frame:
    crumbs:
      activeColor: *pink
  views:
    table:
      cursorBgColor: *pink
      header:
        fgColor: yellow
    xray:
      fgColor: blue
`)
	s, f, err := LoadSkin(d, "dracula")
	if err != nil || f.From != "k9s" || s.Style.Body.FgColor != "#f8f8f2" || s.Style.Frame.Crumbs.ActiveColor != "#ff79c6" ||
		s.Style.Views.Table.Header.FgColor != "yellow" || s.Style.Body.BgColor != "default" {
		t.Fatalf("got %+v %+v %v", s, f, err)
	}
	write(t, filepath.Join(d.KScope, "skins"), "dracula.yaml", "k9s:\n  body:\n    fgColor: red\n")
	if s, f, err := LoadSkin(d, "dracula"); err != nil || f.From != "kscope" || s.Style.Body.FgColor != "red" {
		t.Fatalf("kscope's first: %+v %+v %v", s, f, err)
	}
	for _, tt := range []struct{ name, text, problem string }{
		{"bad-color", "k9s:\n  views:\n    table:\n      fgColor: blurple\n", `line 4: k9s.views.table.fgColor: "blurple" is not a color (a name such as dodgerblue, #rrggbb, or default)`},
		{"broken", "k9s:\n  body:\n    fgColor: red\n   x: [\n", "line 3: did not find expected key"},
		{"wrong-type", "k9s:\n  body: red\n", "line 2: k9s.body: want a mapping, not string"},
	} {
		write(t, filepath.Join(d.KScope, "skins"), tt.name+".yaml", tt.text)
		if _, _, err := LoadSkin(d, tt.name); err == nil || err.Error() != filepath.Join(d.KScope, "skins", tt.name+".yaml")+": "+tt.problem {
			t.Errorf("%s: %v\nwant %s", tt.name, err, tt.problem)
		}
	}
	if _, _, err := LoadSkin(d, "nosuch"); err == nil || !strings.Contains(err.Error(), `skin "nosuch" not found`) {
		t.Errorf("missing: %v", err)
	}
}
