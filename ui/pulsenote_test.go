package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
)

// TestPulseKeyOpensTheRegisteredScreen: `i` on a table opens the pulse screen registered in
// Options.Registered (its TableKey) with the table's title and rows; esc goes back; without one registered, `i` is not bound.
func TestPulseKeyOpensTheRegisteredScreen(t *testing.T) {
	var label string
	var src cluster.RowSource
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Registered = []ScreenSpec{pulseSpec(func(nav Navigator, l string, s cluster.RowSource) Screen {
			label, src = l, s
			return stubPulse(nav, l, s)
		})}
	})
	var table *livetable.Table
	h.quietly(func() { table = h.app.top().(*livetable.Table) })
	h.press(tcell.KeyRune, 'i')
	h.eventually("pulse stub of pods")
	if label != table.Title() || src != table.Source() {
		t.Errorf("opened with %q and %v, want the table's %q and its source", label, src, table.Title())
	}
	h.press(tcell.KeyEscape, 0)
	h.eventually("pods(shop)[3]")

	bare := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.Registered = nil })
	bare.press(tcell.KeyRune, 'i')
	bare.contains("pods(shop)[3]")
	bare.press(tcell.KeyRune, '?')
	if strings.Contains(bare.text(), "informer at work") {
		t.Error("the help lists `i` with no pulse screen registered")
	}
}

// stubPulse is the tests' pulse screen (the real one, package ui/pulse, imports ui): a line naming the table.
func stubPulse(nav Navigator, label string, _ cluster.RowSource) Screen {
	return &stubScreen{nav: nav, text: tview.NewTextView().SetText("pulse stub of " + label)}
}

// stubPulseKey is the pulse screen's key, as package ui/pulse declares it.
var stubPulseKey = keymap.NewKey("pulse", keymap.Char('i'), "the table's informer at work: lists, watch, events per second, relists and reconnects")

// pulseSpec is the tests' pulse screen declared as package ui/pulse declares the real one: i on a live table
// opens what open returns.
func pulseSpec(open func(nav Navigator, label string, src cluster.RowSource) Screen) ScreenSpec {
	return ScreenSpec{
		Keys: keymap.Family{Title: "Pulse view", Screen: "ui/pulse", Defs: []keymap.KeyDef{stubPulseKey}},
		Tables: []TableKey{{Key: stubPulseKey, Open: func(s Session, title string, src cluster.RowSource) {
			s.Push(open(s, title, src))
		}}},
	}
}

// stubScreen is a screen showing a line of text, with the keys every screen offers and keys of its own.
type stubScreen struct {
	BaseScreen
	nav  Navigator
	text *tview.TextView
	keys []keymap.Binding
}

func (s *stubScreen) Crumb() string              { return "stub" }
func (s *stubScreen) Primitive() tview.Primitive { return s.text }
func (s *stubScreen) Activate()                  {}
func (s *stubScreen) Close()                     {}
func (s *stubScreen) Bindings() []keymap.Binding {
	return append(append([]keymap.Binding{s.nav.HelpBinding()}, s.keys...), s.nav.QuitBinding())
}
