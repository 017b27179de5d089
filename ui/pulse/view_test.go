package pulse

import (
	"strings"
	"testing"
	"time"

	"kscope/ui/navtest"
	"kscope/watch"
)

// fakePulseSource is a fixed list of rows whose informer figures are given (a real watch.Source needs a server).
type fakePulseSource struct {
	*watch.StaticSource
	p watch.Pulse
}

func (f fakePulseSource) Pulse() watch.Pulse { return f.p }

// TestViewShowsTheFigures: the screen over an informer shows its figures and counts the informers; over a fixed
// list it says there is none; it ticks while on top, once however often it is shown.
func TestViewShowsTheFigures(t *testing.T) {
	at := time.Now()
	src := fakePulseSource{watch.NewStaticSource(watch.Spec{}, nil), watch.Pulse{Started: at, Now: at, Watching: true,
		WatchSince: at, Watches: 1, Lists: 1, Rows: 3, FirstList: watch.ListStat{At: at, Rows: 3, Bytes: 100}}}
	nav := navtest.New(t, nil)
	v := New(nav, "pods(shop)", src).(*View)
	v.Activate()
	v.Activate()
	text := v.text.GetText(true)
	for _, want := range []string{"pods(shop)", "open for 0s", "rows             3"} {
		if !strings.Contains(text, want) {
			t.Errorf("the figures lack %q:\n%s", want, text)
		}
	}
	if got := v.Status(); got != "1 informer(s); figures read every second" {
		t.Errorf("status %q", got)
	}
	if tick := nav.Ticking(); len(tick) != 1 || tick[0] != v {
		t.Errorf("ticking %v, want the view once", nav.Ticking())
	}
	if b := v.Bindings(); len(b) != 2 || b[0].Name != "help" || b[1].Name != "quit" {
		t.Errorf("bindings %+v, want help and quit", b)
	}

	fixed := New(nav, "kinds", watch.NewStaticSource(watch.Spec{}, nil)).(*View)
	fixed.Activate()
	if text := fixed.text.GetText(true); text != "this table has no informer of its own (a fixed list of rows)" {
		t.Errorf("a fixed list shows %q", text)
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
