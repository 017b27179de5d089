package helm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/union"
	"kscope/watch"
)

func TestObjectsKeyOpensTheLiveTableOfTheManifestsObjects(t *testing.T) {
	c, s := newReleases(t)
	cm := discovery.Resource{Version: "v1", Name: "configmaps", Kind: "ConfigMap", Namespaced: true, Verbs: []string{"list", "watch"}}
	s.Kinds = func(apiVersion, kind string) (discovery.Resource, error) {
		if apiVersion == "v1" && kind == "ConfigMap" {
			return cm, nil
		}
		return discovery.Resource{}, errors.New("not served")
	}
	row := func(name string) *watch.Row {
		return &watch.Row{Key: "shop/" + name, Namespace: "shop", Name: name, Cells: []string{name, "Current", ""}}
	}
	c.objects = map[string][]*watch.Row{"configmaps": {row("web-config"), row("other-config")}}
	s.UI(func() { Spec.Commands[0].Run(s, nil) })
	v := s.Pushed()[0].(*Releases)
	installWeb(t, c)
	s.UI(v.Activate)
	waitFor(t, s, "web", func() bool { return len(v.content.Rows()) == 1 })

	s.Press(v, tcell.NewEventKey(tcell.KeyRune, 'o', 0))
	waitFor(t, s, "the objects' table", func() bool { return len(s.Tables()) == 1 })
	tb := s.Tables()[0]
	if tb.Title != "objects(shop/web)" || tb.Res.Name != "configmaps" || !tb.Res.Namespaced {
		t.Errorf("table %q of %+v", tb.Title, tb.Res)
	}
	if errs := s.Errors(); len(errs) != 1 || errs[0] != "release shop/web: 1 objects of kinds not served, not shown: Secret/web-old" {
		t.Errorf("errors %q", errs)
	}
	src, ok := tb.Src.(*union.Named)
	if !ok {
		t.Fatalf("source %T, want the manifest's objects over their kinds", tb.Src)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src.Start(ctx)
	defer src.Stop()
	var keys []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		keys = keys[:0]
		for _, r := range src.Snapshot(watch.Query{SortColumn: -1}).Rows {
			keys = append(keys, r.Key)
		}
		if len(keys) > 0 {
			break
		}
	}
	if strings.Join(keys, " ") != "configmap/shop/web-config" {
		t.Errorf("rows %q, want the manifest's config map only", keys)
	}
	if got := strings.Join(columnNames(src.Columns()), " "); got != "KIND NAME HEALTH AGE" {
		t.Errorf("columns %s", got)
	}

	// h is the revisions, as enter.
	s.Press(v, tcell.NewEventKey(tcell.KeyRune, 'h', 0))
	if _, ok := s.Pushed()[len(s.Pushed())-1].(*Revisions); !ok {
		t.Errorf("h pushed %T, want the revisions", s.Pushed()[len(s.Pushed())-1])
	}
}

func columnNames(cols []watch.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}
