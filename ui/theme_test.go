package ui

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/config"
	"kscope/ui/theme"
)

// loadSkin writes text as skins/test.yaml and reads it as kscope does.
func loadSkin(t *testing.T, text string) *config.Skin {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "skins"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "skins", "test.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _, err := config.LoadSkin(config.Dirs{KScope: dir}, "test")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSkinColorsTheViews: a k9s skin's colors reach the header, crumbs, table, its header and cursor, the
// borders, the YAML view and the help, where kscope has them.
func TestSkinColorsTheViews(t *testing.T) {
	skin := loadSkin(t, `k9s:
  body:
    fgColor: "#e0e0e0"
    bgColor: "#101010"
  info:
    sectionColor: "#ff0000"
  frame:
    border:
      focusColor: "#00ff00"
    crumbs:
      fgColor: "#000001"
      activeColor: "#ffff00"
    title:
      fgColor: "#ff00ff"
  views:
    table:
      fgColor: "#0000ff"
      cursorFgColor: "#000002"
      cursorBgColor: "#ff8000"
      header:
        fgColor: "#808000"
        sorterColor: "#00ffff"
    yaml:
      keyColor: "#800000"
      valueColor: "#008000"
    logs:
      bgColor: "#303030"
  help:
    keyColor: "#123456"
    bgColor: "#202020"
`)
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.Skin = skin })
	hex := func(c tcell.Color) int32 { return c.Hex() }
	check := func(what, substr string, wantFg, wantBg int32) {
		t.Helper()
		st, ok := h.style(substr)
		if !ok {
			t.Fatalf("%s: %q not on screen:\n%s", what, substr, h.text())
		}
		fg, bg, _ := st.Decompose()
		if wantFg != -2 && hex(fg) != wantFg {
			t.Errorf("%s: fg %06x, want %06x", what, hex(fg), wantFg)
		}
		if wantBg != -2 && hex(bg) != wantBg {
			t.Errorf("%s: bg %06x, want %06x", what, hex(bg), wantBg)
		}
	}
	const any = -2
	check("header label", "Context:", 0xff0000, 0x101010)
	check("active crumb", "<pods>", 0x000001, 0xffff00)
	check("table header", "READY", 0x808000, any)
	check("a row", "web-7d9f-fghij", 0x0000ff, 0x101010)
	check("the cursor", "api-5c4b-zzzzz", 0x000002, 0xff8000)
	check("the title", "pods(shop)", 0xff00ff, any)
	check("the border", "╔", 0x00ff00, 0x101010)
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyRune, 'y')
	h.eventually("apiVersion: v1")
	check("a YAML key", "apiVersion", 0x800000, any)
	check("a YAML key", "phase", 0x800000, any)
	check("a YAML value", "Running", 0x008000, any)
	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyRune, '?')
	check("help's KEY column", "ctrl-d", 0x123456, any)
	check("help's background", "╔", any, 0x202020)
	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyRune, 'l')
	h.eventually("logs ")
	check("the logs' background", "╔", any, 0x303030)
}

// TestNoSkinKeepsKscopesLook: without a skin the colors are kscope's own.
func TestNoSkinKeepsKscopesLook(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	st, _ := h.style("web-7d9f-fghij")
	if fg, _, _ := st.Decompose(); fg != theme.ColorNormal {
		t.Errorf("row fg %v, want %v", fg, theme.ColorNormal)
	}
	st, _ = h.style("Context:")
	if fg, _, _ := st.Decompose(); fg != tcell.ColorOrange {
		t.Errorf("header label %v, want orange", fg)
	}
}
