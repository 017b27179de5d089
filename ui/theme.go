package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/ui/theme"
)

// applyTheme colors the app's own lines (header, prompt, status) and the stack's frame with the skin.
func (a *App) applyTheme() {
	t := a.theme
	if !t.Skinned() {
		return
	}
	for _, p := range []tview.Primitive{a.header.view, a.status.view, a.body, a.root} {
		t.Paint(p)
	}
	if fg, ok := t.BodyFg(); ok {
		a.header.view.SetTextColor(fg)
		a.status.view.SetTextColor(fg)
	}
	a.bar.SetColors(t.PromptColors())
}

// paintView gives the top view's primitive the skin's background and border: the help's and the logs'
// own backgrounds where the skin has them.
func paintView(t *theme.Theme, v Screen) {
	if !t.Skinned() {
		return
	}
	p := v.Primitive()
	t.Paint(p)
	b, ok := p.(interface{ SetBackgroundColor(tcell.Color) *tview.Box })
	if !ok {
		return
	}
	if s, ok := v.(SkinnedScreen); ok {
		if bg, ok := s.SkinBackground(t); ok {
			b.SetBackgroundColor(bg)
		}
	}
}

// SkinnedScreen is a view whose background the skin sets apart (k9s's help and log views).
type SkinnedScreen interface {
	// SkinBackground returns the view's background in skin t, ok false when the skin does not set one.
	SkinBackground(t *theme.Theme) (bg tcell.Color, ok bool)
}

func (*HelpView) SkinBackground(t *theme.Theme) (tcell.Color, bool) { return t.HelpBg, t.HasHelpBg }
