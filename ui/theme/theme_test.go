package theme

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/config"
)

// TestYAMLLine: a YAML line's key, colon and value take the skin's tags, text from the cluster is escaped,
// and kscope's own look colors only the key.
func TestYAMLLine(t *testing.T) {
	skin := &config.Skin{}
	skin.Style.Views.Yaml.KeyColor = "#800000"
	skin.Style.Views.Yaml.ColonColor = "#000080"
	skin.Style.Views.Yaml.ValueColor = "#008000"
	tests := []struct {
		name  string
		theme *Theme
		line  string
		want  string
	}{
		{"own look: the key", Default(), "  name: web\n", "  [steelblue]name[-]: web\n"},
		{"own look: a list item's key", Default(), "- name: [x]", "- [steelblue]name[-]: [x[]"},
		{"own look: no key", Default(), "  - web", "  - web"},
		{"skin: key, colon, value", New(skin), "phase: Running", "[#800000]phase[-][#000080]:[-][#008000] Running[-]"},
		{"skin: no key", New(skin), "  - [web]", "[#008000]  - [web[][-]"},
	}
	for _, tt := range tests {
		if got := tt.theme.YAMLLine(tt.line); got != tt.want {
			t.Errorf("%s: YAMLLine(%q) = %q, want %q", tt.name, tt.line, got, tt.want)
		}
	}
}

// TestPromptColors: the prompt's background is the skin's prompt one, else its body's, else the default.
func TestPromptColors(t *testing.T) {
	body := &config.Skin{}
	body.Style.Body.BgColor = "#101010"
	prompt := &config.Skin{}
	prompt.Style.Body.BgColor = "#101010"
	prompt.Style.Prompt.BgColor = "#202020"
	tests := []struct {
		name string
		skin *config.Skin
		want tcell.Color
	}{
		{"no skin", nil, tcell.ColorDefault},
		{"body only", body, tcell.NewHexColor(0x101010)},
		{"prompt's own", prompt, tcell.NewHexColor(0x202020)},
	}
	for _, tt := range tests {
		if _, _, bg := New(tt.skin).PromptColors(); bg != tt.want {
			t.Errorf("%s: prompt background %v, want %v", tt.name, bg, tt.want)
		}
	}
	if New(nil).Skinned() || !New(body).Skinned() {
		t.Error("Skinned: want false without a skin, true with one")
	}
}
