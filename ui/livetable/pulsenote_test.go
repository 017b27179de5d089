package livetable

import (
	"testing"
	"time"

	"kscope/cluster"
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
	parts  []cluster.RowSource
}

func (f fakePartedSource) PartSources() ([]string, []cluster.RowSource) { return f.labels, f.parts }

func TestPulseNote(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.Local)
	static := watch.NewStaticSource(watch.Spec{}, nil)
	with := func(p watch.Pulse) cluster.RowSource { return fakePulseSource{static, p} }
	for _, tc := range []struct {
		name string
		src  cluster.RowSource
		want string
	}{
		{"a fixed list", static, ""},
		{"nothing yet", with(watch.Pulse{}), "pulse no events yet"},
		{"busy", with(watch.Pulse{RecentEvents: 25, LastEvent: at}), "pulse 2.5 ev/s"},
		{"quiet", with(watch.Pulse{LastEvent: at}), "pulse quiet since 10:00:00"},
		{"relisted", with(watch.Pulse{Relists: 2, Reconnects: 3}), "pulse no events yet · 2 relist(s) · 3 reconnect(s)"},
		{"a union adds its parts", fakePartedSource{static, []string{"a", "b"}, []cluster.RowSource{
			with(watch.Pulse{RecentEvents: 10, Relists: 1}), with(watch.Pulse{RecentEvents: 5})}},
			"pulse 1.5 ev/s · 1 relist(s)"},
	} {
		if got := pulseNote(tc.src); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
