package portforwards

import (
	"strings"
	"testing"
	"time"

	"kscope/forwards"
	"kscope/ui/navtest"
)

// TestViewListsAndStops: the view lists every forward (local, target, since, state, moves, what it follows; an
// ended one with why, one in a gap since when and why), follows the list while open, counts the active ones; ctrl-d asks (from, to) and stops the selected one only
// when the user picks Stop; with nothing listed it says so. Its keys are the family's in keymap.Keys.
func TestViewListsAndStops(t *testing.T) {
	nav := navtest.New(t, nil)
	var list forwards.List
	at := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	stopped := map[string]bool{}
	add := func(local, target string) *forwards.Forward {
		return list.Add(local, target, at, func() { stopped[local] = true })
	}
	first := add("127.0.0.1:8080", "shop/web-abc:8080")
	list.Report(first, forwards.Status{Phase: forwards.Forwarding, Pod: "web-abc", Port: 8080,
		Follows: "pod web-abc of replicaset web-7d9 (uid 3f2a9c1e…)"})
	v := New(nav, &list).(*View)
	nav.Push(v)
	want := []string{"LOCAL TARGET SINCE STATE MOVES FOLLOWS",
		"127.0.0.1:8080 → shop/web-abc:8080 12:00:00 forwarding to web-abc:8080 0 pod web-abc of replicaset web-7d9 (uid 3f2a9c1e…)"}
	if got := navtest.TableRows(v.table); !equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	if title := v.table.GetTitle(); !strings.Contains(title, "portforwards") || !strings.Contains(title, "[1]") {
		t.Errorf("title %q", title)
	}

	ended := add("127.0.0.1:9090", "shop/web-abc:9090")
	list.Report(ended, forwards.Status{Phase: forwards.Forwarding, Pod: "web-abc", Port: 9090, Follows: "pod web-abc only (uid 77aa01bc…)"})
	list.End(ended, "pod shop/web-abc was re-created (uid changed), and it had no controller")
	want = append(want, "127.0.0.1:9090 → shop/web-abc:9090 12:00:00 ended: pod shop/web-abc was re-created (uid changed), and it had no controller 0 pod web-abc only (uid 77aa01bc…)")
	moving := add("127.0.0.1:8000", "service shop/web:80")
	list.Report(moving, forwards.Status{Phase: forwards.Reconnecting, Since: at.Add(time.Minute),
		Why: "pod shop/web-abc was deleted", Moves: 2, Follows: "pods selected by service web (uid 5b6c7d8e…)"})
	want = append(want, "127.0.0.1:8000 → service shop/web:80 12:00:00 reconnecting since 12:01:00 (pod shop/web-abc was deleted) 2 pods selected by service web (uid 5b6c7d8e…)")
	if got := navtest.TableRows(v.table); !equal(got, want) {
		t.Errorf("after a change, rows %q, want %q", got, want)
	}
	if got := v.Status(); got != "2 active" {
		t.Errorf("status %q", got)
	}

	bindings := v.Bindings()
	if len(bindings) != 3 || bindings[1].Name != keys.Stop.Name || bindings[1].Label != keys.Stop.Key.Label {
		t.Fatalf("bindings %+v: want help, %s, quit", bindings, keys.Stop.Name)
	}
	v.table.Select(1, 0)
	v.stopSelected()
	asked := nav.Confirmations()
	if len(asked) != 1 || asked[0].Question != "Stop the port-forward?\nfrom 127.0.0.1:8080\nto shop/web-abc:8080" ||
		asked[0].Action != "Stop" {
		t.Fatalf("asked %+v", asked)
	}
	if stopped["127.0.0.1:8080"] || len(list.Items()) != 3 {
		t.Fatal("asking stopped the forward (Cancel must leave it)")
	}
	asked[0].Do()
	if !stopped["127.0.0.1:8080"] || len(list.Items()) != 2 {
		t.Errorf("Stop: stopped %v, %d listed", stopped, len(list.Items()))
	}
	if msgs := nav.Messages(); len(msgs) != 1 || msgs[0] != "stopped the port-forward 127.0.0.1:8080 → shop/web-abc:8080" {
		t.Errorf("messages %q", msgs)
	}

	v.Close()
	list.StopAll()
	if got := navtest.TableRows(v.table); len(got) != 3 {
		t.Errorf("a closed view still follows the list: %q", got)
	}
	empty := New(nav, &forwards.List{}).(*View)
	empty.stopSelected()
	if errs := nav.Errors(); len(errs) != 1 || errs[0] != "no port-forward to stop" {
		t.Errorf("errors %q", errs)
	}
}

func equal(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }
