package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/config"
	"kscope/discovery"
	"kscope/history"
	"kscope/ui/keymap"
	"kscope/watch"
)

// feedSpec is a registered screen of the tests, declared as a screen package declares itself: `:feed` (and
// `:fd`) with words, Tab's words, one key. Its command records the Session and words it ran with; a stub
// screen says the words, the namespace and the clusters it got; `bad` is refused on the prompt line.
func feedSpec(ran *Session, words *[]string) ScreenSpec {
	key := keymap.NewKey("feed mark", keymap.Char('m'), "mark the selected change")
	return ScreenSpec{
		Keys: keymap.Family{Title: "Feed view (:feed)", Screen: "ui/feed", Defs: []keymap.KeyDef{key}},
		Commands: []Command{{
			Names: []string{"feed", "fd"}, Usage: "[@CTX,…] [NS] (the feed)", Args: true,
			Candidates: func(s Session) []string { return append([]string{"all"}, s.Namespaces()...) },
			Run: func(s Session, args []string) {
				contexts, rest, err := s.Clusters(args)
				if err == nil && slices.Contains(rest, "bad") {
					err = errors.New(`feed: invalid namespace "bad!"`)
				}
				if err != nil {
					s.Errorf("%s", err.Error())
					return
				}
				*ran, *words = s, rest
				s.Push(&stubScreen{nav: s, keys: []keymap.Binding{key.Bind(func() { s.Message("marked") })},
					text: tview.NewTextView().SetText(fmt.Sprintf("feed stub %q in %q over %q", rest, s.Namespace(), contexts))})
			},
		}},
	}
}

// TestRegisteredScreen: a screen registered in Options.Registered gets its commands (by each name, with Tab's
// words), its key (bound in its screen, in `?`, rebindable by keys.yaml by its name) and its usage in the `:`
// key's description; the core names it nowhere else. Its command's Session opens the registered history
// screen of an object with the feed's changes added; an error goes to the prompt line.
func TestRegisteredScreen(t *testing.T) {
	var s Session
	var words []string
	var row *watch.Row
	var entries func() []history.Entry
	h := start(t, 140, 30, func(o *Options) {
		o.Resource = "deployments"
		o.Registered = []ScreenSpec{feedSpec(&s, &words)}
		o.Keys = []config.KeyRemap{{Name: "feed mark", Key: "M"}}
		o.Registered[0].Plays.History = func(nav Navigator, r *watch.Row, e func() []history.Entry) Screen {
			row, entries = r, e
			return stubHistory(nav, r, e)
		}
	})
	h.command("ns shop")
	h.command("feed web,shop manager=e2e-patcher")
	waitFor(t, h, `feed stub ["web,shop" "manager=e2e-patcher"] in "shop" over []`)
	h.press(tcell.KeyRune, 'M') // keys.yaml's key for "feed mark"
	waitFor(t, h, "marked")
	h.press(tcell.KeyRune, '?')
	waitFor(t, h, "mark the selected change")
	h.contains("feed mark")
	h.press(tcell.KeyRune, '?')
	var colon keymap.Binding
	h.ui(func() { colon = h.app.globalBindings()[0] })
	if !strings.HasSuffix(colon.Description, ", feed [@CTX,…] [NS] (the feed)") {
		t.Errorf("the `:` key says %q, not the registered command", colon.Description)
	}
	h.command("fd all")
	waitFor(t, h, `feed stub ["all"] in "shop" over []`)
	var line string
	h.quietly(func() { line, _ = h.app.completeCommand("feed sh") })
	if line != "feed shop" {
		t.Errorf("Tab on %q: %q, want %q", "feed sh", line, "feed shop")
	}

	res := discovery.Resource{Version: "v1", Name: "configmaps", Kind: "ConfigMap", Namespaced: true}
	cm := &watch.Row{Key: "web/settings", Namespace: "web", Name: "settings", ResourceVersion: "42"}
	var opened bool
	h.ui(func() {
		opened = s.OpenHistory(nil, "", res, cm, func() []history.FeedChange {
			return []history.FeedChange{{Seen: t0, RV: "42", Op: "updated", Manager: "e2e-patcher", Sure: true, Fields: "data"}}
		})
	})
	waitFor(t, h, "history stub of web/settings")
	var es []history.Entry
	h.ui(func() { es = entries() })
	if !opened || row != cm || len(es) != 1 || es[0].Feed == nil || es[0].Summary(80) != "updated: data (change feed; no version kept)" {
		t.Errorf("history of %+v (opened %v): %+v", row, opened, es)
	}
	if w, sure, ok := es[0].Writer(); !ok || !sure || w.Name() != "e2e-patcher" {
		t.Errorf("writer %+v %v %v", w, sure, ok)
	}
	h.command("feed bad")
	waitFor(t, h, `invalid namespace "bad!"`)
}

// TestRegisteredScreenOverClusters: a registered command's Session reads @-words into contexts (the other
// words as they were), else the contexts of the table on top when it shows several clusters, over a table of
// one none; Connect is the session's member connections; OpenHistory in a member cluster opens the history
// through that cluster's App (its Navigator is that cluster's, the header names its context); an unknown
// context is one line.
func TestRegisteredScreenOverClusters(t *testing.T) {
	other := fixtureCluster()
	other.info.Context = "viewer"
	var s Session
	var words []string
	var historyNav Navigator
	var entries func() []history.Entry
	h := start(t, 140, 30, func(o *Options) {
		o.Resource = "pods"
		o.Registered = []ScreenSpec{feedSpec(&s, &words)}
		o.Connect = func(_ context.Context, name string) (cluster.Interface, error) {
			if name == "viewer" {
				return other, nil
			}
			return nil, errors.New("no such context")
		}
		o.Registered[0].Plays.History = func(nav Navigator, r *watch.Row, e func() []history.Entry) Screen {
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
	h.command("feed")
	h.eventually(`feed stub [] in "shop" over []`)
	h.command("feed @nope")
	h.eventually(`no context "nope" in the kubeconfig (contexts: admin, viewer)`)
	h.command("feed @admin,@viewer shop kind=pods")
	h.eventually(`feed stub ["shop" "kind=pods"] in "shop" over ["admin" "viewer"]`)
	if c, err := s.Connect(context.Background(), "viewer"); c != other || err != nil {
		t.Fatalf("viewer connected to %v (%v)", c, err)
	}
	if c, err := s.Connect(context.Background(), "admin"); c != cluster.Interface(h.cluster) || err != nil {
		t.Fatalf("admin connected to %v (%v): want the session's connection", c, err)
	}
	// a pod of the viewer cluster named as one of the session's cluster's pods table: its history is the
	// viewer's (the feed's change), never that table's versions of the other cluster's pod
	pods := discovery.Resource{Version: "v1", Name: "pods", Kind: "Pod", Namespaced: true}
	pod := &watch.Row{Key: "shop/web-7d9f-abcde", Namespace: "shop", Name: "web-7d9f-abcde", ResourceVersion: "9"}
	h.ui(func() {
		s.OpenHistory(other, "viewer", pods, pod, func() []history.FeedChange {
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
	h.command("feed manager=e2e")
	h.eventually(`feed stub ["manager=e2e"] in "shop" over ["admin" "viewer"]`)
}

// TestKeyFamiliesOfRegisteredScreens: the whole key table is keymap.Keys's with the `:` key naming each
// registered command, then the registered screens' families, in order; keys.yaml's names include theirs.
func TestKeyFamiliesOfRegisteredScreens(t *testing.T) {
	var s Session
	var words []string
	spec := feedSpec(&s, &words)
	fams := KeyFamilies([]ScreenSpec{spec})
	core := keymap.Keys.Families()
	if len(fams) != len(core)+1 || fams[len(fams)-1].Title != "Feed view (:feed)" {
		t.Fatalf("families %d (last %q), want keymap.Keys's %d and the feed's", len(fams), fams[len(fams)-1].Title, len(core))
	}
	if d := fams[0].Defs[0]; d.Name != "command" || !strings.HasSuffix(d.Description, ", q, feed [@CTX,…] [NS] (the feed)") {
		t.Errorf("the `:` key: %q %q", d.Name, d.Description)
	}
	if KeyFamilies(nil)[0].Defs[0].Description != keymap.Keys.Global.Command.Description {
		t.Error("with no screen registered the `:` key is not keymap.Keys's")
	}
	if !slices.Contains(keymap.Names(fams), "feed mark") || slices.Contains(keymap.Names(core), "feed mark") {
		t.Error("keys.yaml's names do not follow the registered screens")
	}
}
