package forwards

import (
	"reflect"
	"testing"
	"time"
)

// TestListLife: forwards are listed in the order they started; one that ends says why and ends once; Stop
// removes one and calls its stop; StopAll stops the rest; watchers hear each change until they cancel.
func TestListLife(t *testing.T) {
	var l List
	changes := 0
	cancel := l.Watch(func() { changes++ })
	stopped := map[string]bool{}
	add := func(local string) *Forward {
		return l.Add(local, "shop/web:80", time.Unix(0, 0), func() { stopped[local] = true })
	}
	a, b, c := add("127.0.0.1:1"), add("127.0.0.1:2"), add("127.0.0.1:3")
	if got := l.Items(); !reflect.DeepEqual(got, []*Forward{a, b, c}) || l.Active() != 3 || a.State() != "active" {
		t.Fatalf("items %v, active %d, state %q", got, l.Active(), a.State())
	}
	if !l.End(b, "pod gone") || l.End(b, "again") {
		t.Error("End: a running forward ends once")
	}
	if b.State() != "ended: pod gone" || !b.Ended() || l.Active() != 2 {
		t.Errorf("ended forward: %q, active %d", b.State(), l.Active())
	}
	l.Stop(a)
	if !stopped["127.0.0.1:1"] || len(l.Items()) != 2 || a.State() != "stopped" {
		t.Errorf("Stop: stopped %v, items %d, state %q", stopped, len(l.Items()), a.State())
	}
	if l.End(a, "late") {
		t.Error("a stopped forward ended again")
	}
	cancel()
	l.StopAll()
	if !stopped["127.0.0.1:3"] || len(l.Items()) != 0 || !c.Ended() {
		t.Errorf("StopAll: stopped %v, items %d", stopped, len(l.Items()))
	}
	if changes != 5 { // three adds, an end, a stop; none after cancel
		t.Errorf("%d changes heard, want 5", changes)
	}
}

// TestListReport: a forward shows how its Forwarder last reported it stands and its moves; a report that
// changes nothing is not a change; a forward over keeps how it ended.
func TestListReport(t *testing.T) {
	var l List
	changes := 0
	l.Watch(func() { changes++ })
	f := l.Add("127.0.0.1:8080", "deployment shop/web:8080", time.Unix(0, 0), func() {})
	if f.State() != "active" || f.Moves() != 0 || f.InGap() {
		t.Errorf("before any report: %q, %d moves", f.State(), f.Moves())
	}
	since := time.Date(2026, 1, 1, 12, 0, 1, 0, time.UTC)
	for _, tc := range []struct {
		st    Status
		state string
		gap   bool
	}{
		{Status{Phase: Forwarding, Pod: "web-a", Port: 8080}, "forwarding to web-a:8080", false},
		{Status{Phase: Reconnecting, Since: since, Why: "pod shop/web-a was deleted"},
			"reconnecting since 12:00:01 (pod shop/web-a was deleted)", true},
		{Status{Phase: Forwarding, Pod: "web-b", Port: 8081, Moves: 1}, "forwarding to web-b:8081", false},
		{Status{Phase: Waiting, Pod: "web-0", Since: since, Moves: 1}, "waiting for pod web-0 since 12:00:01", true},
	} {
		l.Report(f, tc.st)
		if f.State() != tc.state || f.InGap() != tc.gap || f.Moves() != tc.st.Moves {
			t.Errorf("after %+v: %q (gap %v, %d moves), want %q", tc.st, f.State(), f.InGap(), f.Moves(), tc.state)
		}
	}
	l.Report(f, f.status)
	if changes != 5 { // the add and four reports; not the report of the same status
		t.Errorf("%d changes, want 5", changes)
	}
	l.End(f, "")
	l.Report(f, Status{Phase: Forwarding, Pod: "web-c", Port: 8080})
	if f.State() != "stopped" || f.InGap() {
		t.Errorf("a stopped forward reported: %q", f.State())
	}
}
