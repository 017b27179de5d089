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
