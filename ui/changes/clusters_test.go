package changes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"kscope/changes"
	"kscope/cluster"
	"kscope/history"
	"kscope/tree"
	"kscope/ui/navtest"
)

// TestViewFeedOverClusters: `:changes @admin,@second,@gone,@broken shop` watches shop in each cluster on
// its own connection; the unreachable cluster and the one whose feed cannot be built are named on the status
// line beside the others' words (their skipped kinds too) and blank nothing; each cluster's changes show
// with its CONTEXT, merged newest first; the title says the bound is each cluster's; `/` matches the
// context; enter opens the history in the row's cluster, with that cluster's changes of the object.
func TestViewFeedOverClusters(t *testing.T) {
	admin, second, broken := newFakeCluster(), newFakeCluster(), newFakeCluster()
	broken.failSource = errors.New("metadata client: no config")
	connect := func(_ context.Context, name string) (cluster.Interface, error) {
		switch name {
		case "admin":
			return admin, nil
		case "second":
			return second, nil
		case "broken":
			return broken, nil
		}
		return nil, errors.New("dial tcp 127.0.0.1:1: connect: connection refused")
	}
	var openedIn cluster.Interface
	var openedName string
	var opened changes.Change
	var feed func() []history.FeedChange
	nav := navtest.New(t, nil)
	s, err := New(nav, Feed{Args: []string{"shop"}, Contexts: []string{"admin", "second", "gone", "broken"},
		Connect: connect, History: func(c cluster.Interface, name string, ch changes.Change, f func() []history.FeedChange) bool {
			if c == nil {
				t.Error("the history opened in the view's cluster, not the row's")
			}
			openedIn, openedName, opened, feed = c, name, ch, f
			return true
		}})
	if err != nil {
		t.Fatal(err)
	}
	v := s.(*View)
	nav.UI(func() { nav.Push(v) })
	defer nav.UI(v.Close)
	waitStatus(t, nav, v, "admin watching, not visible (skipped): secrets", "second watching, not visible (skipped): secrets",
		"gone unreachable: dial tcp 127.0.0.1:1: connect: connection refused", "broken not watched: metadata client: no config",
		"latest 2000 kept per cluster, oldest dropped")
	for _, c := range []*fakeCluster{admin, second} {
		c.mu.Lock()
		if fmt.Sprint(c.namespaces) != "[shop]" {
			t.Errorf("watched %v, want shop", c.namespaces)
		}
		c.mu.Unlock()
	}

	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(admin.client.Tracker().Create(configmaps, meta("shop", "cfg", "2", "kubectl-create", 1, `{"f:data":{}}`), "shop"))
	waitRows(t, nav, v, "admin ConfigMap shop cfg created kubectl-create 2")
	must(second.client.Tracker().Create(configmaps, meta("shop", "cfg", "7", "kubectl-create", 1, `{"f:data":{}}`), "shop"))
	waitRows(t, nav, v, "second cfg created 7", "admin cfg created 2")
	must(second.client.Tracker().Update(configmaps, meta("shop", "cfg", "8", "e2e-second", 5, `{"f:data":{"f:k":{}}}`), "shop"))
	waitRows(t, nav, v, "second cfg updated e2e-second 8", "second cfg created 7", "admin cfg created 2")
	nav.UI(func() {
		if h := navtest.TableRows(v.table)[0]; !strings.HasPrefix(strings.TrimSpace(h), "CONTEXT") {
			t.Errorf("header %q: CONTEXT first", h)
		}
		if title := v.table.GetTitle(); !strings.Contains(title, "changes @admin,@second,@gone,@broken(shop)") ||
			!strings.Contains(title, "[3 of max 2000 per cluster]") {
			t.Errorf("title %q", title)
		}
	})

	nav.UI(v.askFilter)
	if !nav.Answer("^second") {
		t.Fatal("/ asked nothing")
	}
	waitRows(t, nav, v, "second cfg updated", "second cfg created")
	nav.UI(func() {
		v.table.Select(1, 0)
		v.openHistory()
	})
	if openedIn != second || openedName != "second" || opened.Name != "cfg" || opened.RV != "8" || feed == nil {
		t.Fatalf("enter opened %+v in %q (%v)", opened, openedName, openedIn == second)
	}
	if got := feed(); len(got) != 2 || got[0].RV != "7" || got[1].Manager != "e2e-second" {
		t.Errorf("the second cluster's changes of cfg: %+v", got)
	}
}

// waitStatus waits until the view's status line holds each of want.
func waitStatus(t *testing.T, nav *navtest.Nav, v *View, want ...string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var st string
		nav.UI(func() { st = v.Status() })
		missing := ""
		for _, w := range want {
			if !strings.Contains(st, w) {
				missing = w
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("status %q, want %q", st, missing)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestMerge: the clusters' changes, each newest first, merged newest first; each cluster's order kept; at
// the same time, the earlier cluster's first.
func TestMerge(t *testing.T) {
	at := func(sec int, name string) changes.Change {
		return changes.Change{Seen: time.Date(2026, 1, 1, 12, 0, sec, 0, time.UTC), Name: name,
			Kind: tree.Kind{GVR: configmaps, Kind: "ConfigMap", Namespaced: true}}
	}
	for _, tc := range []struct {
		name  string
		lists [][]changes.Change
		want  string
	}{
		{"none", nil, ""},
		{"one cluster", [][]changes.Change{{at(3, "c"), at(2, "b")}}, "0c 0b"},
		{"an empty cluster", [][]changes.Change{nil, {at(3, "c")}, {}}, "1c"},
		{"interleaved", [][]changes.Change{{at(5, "a5"), at(1, "a1")}, {at(4, "b4"), at(2, "b2")}}, "0a5 1b4 1b2 0a1"},
		{"same time", [][]changes.Change{{at(2, "a")}, {at(2, "b")}}, "0a 1b"},
		{"a cluster's order kept", [][]changes.Change{{at(1, "early"), at(3, "late")}, {at(2, "b")}}, "1b 0early 0late"},
	} {
		var got []string
		for _, e := range merge(tc.lists) {
			got = append(got, fmt.Sprintf("%d%s", e.from, e.Name))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: merge = %q, want %q", tc.name, got, tc.want)
		}
	}
}
