package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/ui/keymap"
	"kscope/watch"
)

// fakePulseSource is a fixed list of rows whose informer figures are given (a real watch.Source needs a server).
type fakePulseSource struct {
	*watch.StaticSource
	p watch.Pulse
}

func (f fakePulseSource) Pulse() watch.Pulse { return f.p }

// fakePartedSource is a union of two namespaces' sources.
type fakePartedSource struct {
	*watch.StaticSource
	labels []string
	parts  []RowSource
}

func (f fakePartedSource) PartSources() ([]string, []RowSource) { return f.labels, f.parts }

func TestPulseNote(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.Local)
	static := watch.NewStaticSource(watch.Spec{}, nil)
	with := func(p watch.Pulse) RowSource { return fakePulseSource{static, p} }
	for _, tc := range []struct {
		name string
		src  RowSource
		want string
	}{
		{"a fixed list", static, ""},
		{"nothing yet", with(watch.Pulse{}), "pulse no events yet"},
		{"busy", with(watch.Pulse{RecentEvents: 25, LastEvent: at}), "pulse 2.5 ev/s"},
		{"quiet", with(watch.Pulse{LastEvent: at}), "pulse quiet since 10:00:00"},
		{"relisted", with(watch.Pulse{Relists: 2, Reconnects: 3}), "pulse no events yet · 2 relist(s) · 3 reconnect(s)"},
		{"a union adds its parts", fakePartedSource{static, []string{"a", "b"}, []RowSource{
			with(watch.Pulse{RecentEvents: 10, Relists: 1}), with(watch.Pulse{RecentEvents: 5})}},
			"pulse 1.5 ev/s · 1 relist(s)"},
	} {
		if got := pulseNote(tc.src); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestPulseKeyOpensTheRegisteredScreen: `i` on a table opens the pulse screen registered in
// Options.Screens with the table's title and rows; esc goes back; without one registered, `i` is not bound.
func TestPulseKeyOpensTheRegisteredScreen(t *testing.T) {
	var label string
	var src RowSource
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Screens.Pulse = func(nav Navigator, l string, s RowSource) Screen {
			label, src = l, s
			return stubPulse(nav, l, s)
		}
	})
	var table *LiveTable
	h.quietly(func() { table = h.app.top().(*LiveTable) })
	h.press(tcell.KeyRune, 'i')
	h.eventually("pulse stub of pods")
	if label != table.title || src != table.src {
		t.Errorf("opened with %q and %v, want the table's %q and its source", label, src, table.title)
	}
	h.press(tcell.KeyEscape, 0)
	h.eventually("pods(shop)[3]")

	bare := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.Screens.Pulse = nil })
	bare.press(tcell.KeyRune, 'i')
	bare.contains("pods(shop)[3]")
	bare.press(tcell.KeyRune, '?')
	if strings.Contains(bare.text(), "informer at work") {
		t.Error("the help lists `i` with no pulse screen registered")
	}
}

// stubPulse is the tests' pulse screen (the real one, package ui/pulse, imports ui): a line naming the table.
func stubPulse(nav Navigator, label string, _ RowSource) Screen {
	return &stubScreen{nav: nav, text: tview.NewTextView().SetText("pulse stub of " + label)}
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
