package changes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"kscope/changes"
	"kscope/cluster"
	"kscope/history"
	"kscope/tree"
	"kscope/ui/navtest"
)

// infoCluster is fakeCluster with the kubeconfig's contexts in its Info.
type infoCluster struct {
	*fakeCluster
	contexts []string
}

func (c infoCluster) Info() cluster.Info {
	return cluster.Info{Context: c.contexts[0], Contexts: c.contexts}
}

// TestSpecCommand: `:changes` opens the feed with the words typed (but the @-words) in the view's namespace,
// over the contexts the @-words name (connected through the session) or the table on top's, its history key
// opening the session's history screen of the changed object; bad words and unknown contexts are one line on
// the prompt, nothing opened; Tab offers all, the namespaces and the contexts as @-words.
func TestSpecCommand(t *testing.T) {
	c := infoCluster{newFakeCluster(), []string{"admin", "second"}}
	s := navtest.NewSession(t, c)
	s.Ns, s.Names, s.Contexts = "shop", []string{"shop", "web"}, c.contexts
	s.Dial = func(context.Context, string) (cluster.Interface, error) { return c, nil }
	cmd := Spec.Commands[0]
	if !slices.Equal(cmd.Names, []string{"changes"}) || !cmd.Args {
		t.Fatalf("command %v (args %v)", cmd.Names, cmd.Args)
	}
	if got := cmd.Candidates(s); !slices.Equal(got, []string{"all", "shop", "web", "@*", "@admin", "@second"}) {
		t.Errorf("Tab's words %q", got)
	}
	opened := func() *View {
		t.Helper()
		p := s.Pushed()
		if len(p) == 0 {
			t.Fatalf("nothing pushed (errors %q)", s.Errors())
		}
		v := p[len(p)-1].(*View)
		t.Cleanup(func() { s.UI(v.Close) })
		return v
	}

	s.UI(func() { cmd.Run(s, []string{"web", "manager=e2e"}) })
	v := opened()
	if f := v.feed; fmt.Sprint(f.Args) != "[web manager=e2e]" || f.Namespace != "shop" || f.Contexts != nil || f.Connect != nil {
		t.Errorf("feed %+v", f)
	}
	cm := tree.Kind{GVR: configmaps, Kind: "ConfigMap", Namespaced: true}
	change := changes.Change{Kind: cm, Namespace: "web", Name: "settings", Op: changes.Updated, RV: "42"}
	extra := func() []history.FeedChange { return []history.FeedChange{{RV: "42"}} }
	if !v.feed.History(nil, "", change, extra) {
		t.Fatal("the session's history screen did not open")
	}
	h := s.Histories()
	if len(h) != 1 || h[0].Conn != nil || h[0].Res.GVR() != configmaps || h[0].Res.Kind != "ConfigMap" ||
		h[0].Row.Key != "web/settings" || h[0].Row.ResourceVersion != "42" || len(h[0].Extra()) != 1 {
		t.Errorf("history opened %+v", h)
	}

	s.UI(func() { cmd.Run(s, []string{"@admin,@second", "shop"}) })
	v = opened()
	if f := v.feed; fmt.Sprint(f.Args) != "[shop]" || fmt.Sprint(f.Contexts) != "[admin second]" || f.Connect == nil {
		t.Errorf("feed over clusters %+v", f)
	}
	s.View = []string{"second"} // a table of several clusters on top
	s.UI(func() { cmd.Run(s, nil) })
	if v = opened(); fmt.Sprint(v.feed.Contexts) != "[second]" {
		t.Errorf("over the table on top's clusters: %q", v.feed.Contexts)
	}

	pushed := len(s.Pushed())
	s.UI(func() { cmd.Run(s, []string{"@nope"}) })
	s.UI(func() { cmd.Run(s, []string{"manager="}) })
	errs := s.Errors()
	if len(s.Pushed()) != pushed || len(errs) != 2 || !strings.Contains(errs[0], `no context "nope"`) || !strings.Contains(errs[1], "manager=") {
		t.Errorf("bad words: pushed %d more, errors %q", len(s.Pushed())-pushed, errs)
	}
}
