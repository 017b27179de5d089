package ui

import (
	"errors"
	"fmt"
	"testing"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/changes"
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
