package ui

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rivo/tview"

	"kscope/ui/prompt"
	"kscope/ui/theme"
)

// TestPromptsNotices: the prompts service keeps the newest maxNotices notices in order, whatever is noticed
// before they are shown, signals once however many wait, and shows the latest on the prompt line when
// flushed, none left after.
func TestPromptsNotices(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lines int
		kept  []string // first and last kept
	}{
		{"none", 0, nil},
		{"one", 1, []string{"line 0", "line 0"}},
		{"as many as kept", maxNotices, []string{"line 0", fmt.Sprintf("line %d", maxNotices-1)}},
		{"more: the oldest dropped", maxNotices + 50, []string{"line 50", fmt.Sprintf("line %d", maxNotices+49)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bar := prompt.New(prompt.Hooks{Focus: func(tview.Primitive) {}, Closed: func() {}, Candidates: func([]string) {}})
			p := newPrompts(tview.NewApplication(), tview.NewPages(), bar, theme.New(nil), func() {})
			for i := range tt.lines {
				p.Notice(fmt.Sprintf("line %d", i))
			}
			var kept []string
			if n := len(p.notices); n > 0 {
				kept = []string{p.notices[0], p.notices[n-1]}
			}
			if !slices.Equal(kept, tt.kept) || len(p.notices) > maxNotices {
				t.Errorf("kept %d notices, first and last %q, want %q", len(p.notices), kept, tt.kept)
			}
			if got, want := len(p.noticed), min(tt.lines, 1); got != want {
				t.Errorf("%d signals waiting, want %d", got, want)
			}
			p.flushNotices()
			if len(tt.kept) > 0 && bar.ShownMessage() != tt.kept[1] {
				t.Errorf("prompt line %q after flush, want %q", bar.ShownMessage(), tt.kept[1])
			}
			if len(p.notices) != 0 {
				t.Errorf("%d notices left after flush", len(p.notices))
			}
		})
	}
}
