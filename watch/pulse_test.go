package watch

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	testclock "k8s.io/utils/clock/testing"
)

// TestPulseCountsListsWatchesAndEvents: a Source's pulse names its first list (rows, bytes), its watch, the
// events the watch delivered, and, after the watch expires (410 Gone), one relist and one reconnect, both
// caused by the expiry.
func TestPulseCountsListsWatchesAndEvents(t *testing.T) {
	f := newFakeAPI(t)
	for _, k := range []string{"shop/a", "shop/b", "shop/c"} {
		f.set(k, "Running", nil, false)
	}
	s := f.source(t, "shop")
	s.Start(t.Context())
	waitFor(t, "the first watch", func() bool { return s.Pulse().Watching })
	p := s.Pulse()
	if p.Lists != 1 || p.FirstList.Rows != 3 || p.FirstList.Bytes == 0 || p.FirstList.Metadata {
		t.Fatalf("first list %+v (lists %d), want 3 rows listed without metadata, bytes counted", p.FirstList, p.Lists)
	}
	if p.Watches != 1 || p.Reconnects != 0 || p.Relists != 0 || p.Started.IsZero() {
		t.Fatalf("pulse after the first watch: %+v", p)
	}
	waitFor(t, "the metadata fill's bytes", func() bool { return s.Pulse().FillBytes > 0 })

	f.set("shop/a", "Failed", nil, true)
	f.set("shop/d", "Pending", nil, true)
	waitFor(t, "two events", func() bool { return s.Pulse().Events == 2 })
	p = s.Pulse()
	if p.RecentEvents != 2 || p.LastEvent.IsZero() {
		t.Errorf("recent events %d, last %v; want 2 and a time", p.RecentEvents, p.LastEvent)
	}
	if want := f.resourceVersion(); p.ResourceVersion != want {
		t.Errorf("resourceVersion %q, want the last event's %q", p.ResourceVersion, want)
	}

	f.expire <- struct{}{}
	waitFor(t, "the reconnect", func() bool { return s.Pulse().Reconnects == 1 })
	p = s.Pulse()
	if p.Relists != 1 || p.Lists != 2 || p.LastList.Rows != 4 {
		t.Fatalf("after the expiry: %d relists, %d lists, last list %+v; want 1, 2 and 4 rows", p.Relists, p.Lists, p.LastList)
	}
	for what, causes := range map[string][]Cause{"relist": p.RelistCauses, "reconnect": p.ReconnectCauses} {
		if len(causes) != 1 || !strings.Contains(causes[0].Reason, "too old resource version") {
			t.Errorf("%s causes %+v, want the 410", what, causes)
		}
	}
}

// TestPulseRecorderWindowAndCauses: events per second count only the last 10 s; the server closing a watch
// is a cause of its own; only the newest causes are kept.
func TestPulseRecorderWindowAndCauses(t *testing.T) {
	clk := testclock.NewFakePassiveClock(time.Unix(1000, 0))
	r := newPulseRecorder(clk)
	r.started()
	r.listDone(ListStat{At: clk.Now(), Bytes: 10, Rows: 1, Metadata: true}, "5", nil)
	r.watchOpened()
	for range 30 {
		r.event("6", false)
	}
	r.event("7", true)
	clk.SetTime(clk.Now().Add(5 * time.Second))
	r.event("8", false)
	p := r.pulse(1)
	if p.RecentEvents != 31 || p.Events != 31 || p.Bookmarks != 1 || p.ResourceVersion != "8" {
		t.Fatalf("pulse %+v, want 31 recent events, 1 bookmark, rv 8", p)
	}
	if got := p.EventsPerSecond(); got != 3.1 {
		t.Errorf("events per second %v, want 3.1", got)
	}
	clk.SetTime(clk.Now().Add(6 * time.Second))
	if p := r.pulse(1); p.RecentEvents != 1 {
		t.Errorf("recent events 11 s after the first 30: %d, want 1", p.RecentEvents)
	}
	clk.SetTime(clk.Now().Add(10 * time.Second))
	if p := r.pulse(1); p.RecentEvents != 0 {
		t.Errorf("recent events after a quiet window: %d, want 0", p.RecentEvents)
	}

	for range pulseCauses + 2 {
		r.watchEnded(nil)
		r.watchOpened()
	}
	p = r.pulse(1)
	if p.Reconnects != pulseCauses+2 || len(p.ReconnectCauses) != pulseCauses {
		t.Fatalf("%d reconnects, %d causes kept; want %d and %d", p.Reconnects, len(p.ReconnectCauses), pulseCauses+2, pulseCauses)
	}
	if c := p.ReconnectCauses[0]; c.Reason != "the server ended the watch" {
		t.Errorf("cause %q, want the server ending the watch", c.Reason)
	}
	if !p.Watching || p.Relists != 0 {
		t.Errorf("watching %v, relists %d", p.Watching, p.Relists)
	}
}

func TestCauseOf(t *testing.T) {
	refused := &url.Error{Op: "Get", URL: "https://127.0.0.1:1/api/v1/pods?watch=true",
		Err: errors.New("dial tcp 127.0.0.1:1: connect: connection refused")}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("watch pods: %w", refused), "dial tcp 127.0.0.1:1: connect: connection refused"},
		{apierrors.NewResourceExpired("too old resource version: 5 (9)"), "too old resource version: 5 (9)"},
		{fmt.Errorf("watch stream: %w", errors.New("unexpected EOF\nmore")), "watch stream: unexpected EOF more"},
	} {
		if got := causeOf(tc.err); got != tc.want {
			t.Errorf("causeOf(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
