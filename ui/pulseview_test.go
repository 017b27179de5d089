package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

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

func TestPulseText(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.Local)
	p := watch.Pulse{
		Started: at, Now: at.Add(90 * time.Second), Rows: 42, ResourceVersion: "1234",
		FirstList: watch.ListStat{At: at, Duration: 190 * time.Millisecond, Bytes: 3 << 20, Rows: 40},
		LastList:  watch.ListStat{At: at.Add(60 * time.Second), Duration: 20 * time.Millisecond, Bytes: 2048, Rows: 42, Metadata: true},
		Lists:     2,
		FillBytes: 900, FillJoinedPages: 2,
		Relists:    1,
		Watching:   true,
		WatchSince: at.Add(61 * time.Second), Watches: 2, Reconnects: 1,
		RelistCauses:    []watch.Cause{{At: at.Add(60 * time.Second), Reason: "too old resource version: 5 (9)"}},
		ReconnectCauses: []watch.Cause{{At: at.Add(61 * time.Second), Reason: "too old resource version: 5 (9)"}},
		Events:          7, Bookmarks: 1, RecentEvents: 3, LastEvent: at.Add(88 * time.Second),
	}
	got := pulseText("pods in shop", p)
	for _, want := range []string{
		"[aqua]watch           [-] [green]open[-] for 29s (since 10:01:01), 2 request(s)",
		"[aqua]uptime          [-] 1m30s (since 10:00:00)",
		"[aqua]rows            [-] 42",
		"[aqua]resourceVersion [-] 1234",
		"[aqua]first LIST      [-] 190ms, 3.0 MiB (3145728 bytes), 40 rows, without objects (metadata filled behind), at 10:00:00",
		"[aqua]last LIST       [-] 20ms, 2.0 KiB (2048 bytes), 42 rows, with object metadata, at 10:01:00",
		"[aqua]metadata fill   [-] 900 bytes read (the labels and UIDs of rows listed without objects; 2 page(s) joined)",
		"[aqua]lists           [-] 2 (0 failed)",
		"[aqua]events          [-] 0.3/s over the last 10s · 7 in all · 1 bookmarks",
		"[aqua]last event      [-] 2s ago (10:01:28)",
		"[aqua]relists         [-] 1\n                 10:01:00 too old resource version: 5 (9)\n",
		"[aqua]reconnects      [-] 1\n                 10:01:01 too old resource version: 5 (9)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("pulse text lacks %q:\n%s", want, got)
		}
	}
}

// TestPulseViewOpensFromTable: `i` on a table opens its pulse; a table whose rows are a fixed list says it
// has no informer; esc goes back. A view over an informer shows its figures.
func TestPulseViewOpensFromTable(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.press(tcell.KeyRune, 'i')
	h.eventually("this table has no informer of its own")
	h.press(tcell.KeyEscape, 0)
	h.eventually("pods(shop)[3]")

	at := time.Now()
	src := fakePulseSource{watch.NewStaticSource(watch.Spec{}, nil), watch.Pulse{Started: at, Now: at, Watching: true,
		WatchSince: at, Watches: 1, Lists: 1, Rows: 3, FirstList: watch.ListStat{At: at, Rows: 3, Bytes: 100}}}
	h.ui(func() { h.app.push(NewPulseView(h.app, "pods(shop)", src)) })
	h.eventually("open for 0s")
	h.contains("3 rows")
	h.contains("1 informer(s)")
}
