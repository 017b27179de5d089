package ui

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/changes"
	"kscope/cluster"
	"kscope/history"
	"kscope/tree"
	"kscope/watch"
)

// TestChangesCommand: `:changes` opens the registered changes screen with the words typed and the view's
// namespace; the feed's History opens the registered history screen of the changed object, whose versions
// are the app's with the feed's changes added; an opener's error goes to the prompt line.
func TestChangesCommand(t *testing.T) {
	var got ChangesFeed
	var row *watch.Row
	var entries func() []history.Entry
	h := start(t, 140, 30, func(o *Options) {
		o.Resource = "deployments"
		o.Screens.Changes = func(nav Navigator, feed ChangesFeed) (Screen, error) {
			if len(feed.Args) > 0 && feed.Args[0] == "bad" {
				return nil, errors.New("changes: invalid namespace \"bad!\"")
			}
			got = feed
			return &stubScreen{nav: nav, text: tview.NewTextView().SetText(fmt.Sprintf("changes stub %q in %q", feed.Args, feed.Namespace))}, nil
		}
		o.Screens.History = func(nav Navigator, r *watch.Row, e func() []history.Entry) Screen {
			row, entries = r, e
			return stubHistory(nav, r, e)
		}
	})
	h.command("ns shop")
	h.command("changes web,shop manager=e2e-patcher")
	waitFor(t, h, `changes stub ["web,shop" "manager=e2e-patcher"] in "shop"`)
	if got.History == nil {
		t.Fatal("no history opener handed over")
	}
	cm := tree.Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Kind: "ConfigMap", Namespaced: true}
	c := changes.Change{Seen: t0, Kind: cm, Namespace: "web", Name: "settings", Op: changes.Updated, Manager: "e2e-patcher",
		Sure: true, Fields: "data", RV: "42"}
	h.ui(func() {
		got.History(c, func() []history.FeedChange {
			return []history.FeedChange{{Seen: t0, RV: "42", Op: "updated", Manager: "e2e-patcher", Sure: true, Fields: "data"}}
		})
	})
	waitFor(t, h, "history stub of web/settings")
	var es []history.Entry
	h.ui(func() { es = entries() })
	if row.Namespace != "web" || row.Name != "settings" || row.ResourceVersion != "42" || len(es) != 1 || es[0].Feed == nil ||
		es[0].Summary(80) != "updated: data (change feed; no version kept)" {
		t.Errorf("history of %+v: %+v", row, es)
	}
	if w, sure, ok := es[0].Writer(); !ok || !sure || w.Name() != "e2e-patcher" {
		t.Errorf("writer %+v %v %v", w, sure, ok)
	}
	h.command("changes bad")
	waitFor(t, h, `invalid namespace "bad!"`)
}

// TestChangesCommandOverClusters: `:changes @admin,@viewer shop` hands the screen those contexts (the other
// words as they were) and the session's member connections; `:changes` over a table of several clusters
// covers that table's clusters, over a table of one none; the feed's HistoryIn opens the history through the
// App of the row's cluster (its Navigator is that cluster's, the header names its context); an unknown
// context is one line.
func TestChangesCommandOverClusters(t *testing.T) {
	other := fixtureCluster()
	other.info.Context = "viewer"
	var got ChangesFeed
	var historyNav Navigator
	var entries func() []history.Entry
	h := start(t, 140, 30, func(o *Options) {
		o.Resource = "pods"
		o.Connect = func(_ context.Context, name string) (cluster.Interface, error) {
			if name == "viewer" {
				return other, nil
			}
			return nil, errors.New("no such context")
		}
		o.Screens.Changes = func(nav Navigator, feed ChangesFeed) (Screen, error) {
			got = feed
			return &stubScreen{nav: nav, text: tview.NewTextView().SetText(fmt.Sprintf("changes stub %q over %q", feed.Args, feed.Contexts))}, nil
		}
		o.Screens.History = func(nav Navigator, r *watch.Row, e func() []history.Entry) Screen {
			historyNav, entries = nav, e
			return stubHistory(nav, r, e)
		}
	})
	h.eventually("pods(shop)")
	src := h.cluster.lastSource() // the session's cluster's pods table keeps a version of a pod
	row, _ := src.Row("shop/web-7d9f-abcde")
	changed := *row
	changed.ResourceVersion = "3"
	src.Put(&changed)
	if len(src.Versions("shop/web-7d9f-abcde")) != 2 {
		t.Fatal("the table kept no version of the pod")
	}
	h.command("changes")
	h.eventually(`changes stub [] over []`)
	if got.Connect != nil || got.HistoryIn == nil {
		t.Errorf("the view's cluster alone: connect %v, historyIn %v", got.Connect != nil, got.HistoryIn != nil)
	}
	h.command("changes @nope")
	h.eventually(`no context "nope" in the kubeconfig (contexts: admin, viewer)`)
	for _, tt := range []struct{ line, want string }{
		{"changes @v", "changes @viewer"}, {"changes @", "changes @"}, {"changes sh", "changes shop"},
		{"changes al", "changes all"},
	} {
		var line string
		h.quietly(func() { line, _ = h.app.completeCommand(tt.line) })
		if line != tt.want {
			t.Errorf("Tab on %q: %q, want %q", tt.line, line, tt.want)
		}
	}

	h.command("changes @admin,@viewer shop kind=pods")
	h.eventually(`changes stub ["shop" "kind=pods"] over ["admin" "viewer"]`)
	if got.Connect == nil {
		t.Fatal("no connector handed over")
	}
	if c, err := got.Connect(context.Background(), "viewer"); c != other || err != nil {
		t.Fatalf("viewer connected to %v (%v)", c, err)
	}
	if c, err := got.Connect(context.Background(), "admin"); c != cluster.Interface(h.cluster) || err != nil {
		t.Fatalf("admin connected to %v (%v): want the session's connection", c, err)
	}
	// a pod of the viewer cluster named as one of the session's cluster's pods table below: its history is
	// the viewer's (the feed's change), never that table's versions of the other cluster's pod
	pods := tree.Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}, Kind: "Pod", Namespaced: true}
	h.ui(func() {
		got.HistoryIn(other, "viewer", changes.Change{Seen: t0, Kind: pods, Namespace: "shop", Name: "web-7d9f-abcde", Op: changes.Updated, RV: "9"},
			func() []history.FeedChange {
				return []history.FeedChange{{Seen: t0, RV: "9", Op: "updated", Manager: "e2e", Sure: true}}
			})
	})
	h.eventually("history stub of shop/web-7d9f-abcde")
	h.contains("Context: viewer")
	if historyNav == nil || historyNav.Cluster() != cluster.Interface(other) {
		t.Errorf("the history opened by %v, want the viewer cluster's App", historyNav)
	}
	var es []history.Entry
	h.ui(func() { es = entries() })
	if len(es) != 1 || es[0].Feed == nil {
		t.Errorf("the viewer's pod's history: %+v, want the feed's change alone", es)
	}

	h.command("pods @admin,@viewer")
	h.eventually("admin synced · viewer synced")
	h.command("changes manager=e2e")
	h.eventually(`changes stub ["manager=e2e"] over ["admin" "viewer"]`)
}
