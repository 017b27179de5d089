package helm

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"helm.sh/helm/v4/pkg/release/common"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/helm"
	"kscope/helm/helmtest"
	"kscope/ui"
	"kscope/ui/navtest"
	"kscope/watch"
)

// releases is a cluster holding Helm releases: its lists are helmtest's static sources, its objects the
// ones Helm's drivers wrote into the store.
type releases struct {
	cluster.Interface
	sources *helmtest.Sources
	store   *helmtest.Store
	helm    helmCalls
	// objects are the rows of the objects' own lists (a release's objects), by resource.
	objects map[string][]*watch.Row
}

func (c *releases) NewSource(spec watch.Spec) (cluster.RowSource, error) {
	if spec.Columns != nil { // the objects themselves, computed columns
		cols := make([]watch.Column, len(spec.Columns))
		for i, oc := range spec.Columns {
			cols[i] = oc.Column
		}
		return watch.NewStaticSource(spec, cols, c.objects[spec.GVR.Resource]...), nil
	}
	return c.sources.NewSource(spec)
}
func (c *releases) Get(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	return c.store.Get(ctx, gvr, ns, name)
}

// install writes revision number of release name in shop (chart version 1.<number>.0, the user's replicas
// number) and lists its object, as the server's watch would.
func (c *releases) install(t *testing.T, name string, number int, status common.Status) {
	t.Helper()
	rel := helmtest.Release(name, "shop", number, status, "1."+string(rune('0'+number))+".0")
	rel.Config = map[string]any{"replicas": number}
	key := c.store.Install(t, helm.Secrets, rel)
	c.sources.Part("secrets").Put(c.store.Row(helm.Secrets, "shop", key, name+"-"+key, "1"))
}

func newReleases(t *testing.T) (*releases, *navtest.Session) {
	c := &releases{sources: &helmtest.Sources{}, store: &helmtest.Store{}}
	s := navtest.NewSession(t, c)
	s.Ns = "shop"
	s.FakeClock().SetTime(time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC))
	return c, s
}

// startedSource is the releases of c's namespace shop, started, stopped when t ends.
func startedSource(t *testing.T, c *releases) *helm.Source {
	t.Helper()
	src, err := helm.NewSource(nil, c, c, "shop")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	src.Start(ctx)
	t.Cleanup(func() {
		cancel()
		src.Stop()
	})
	return src
}

// waitFor waits until cond, read under the UI lock, holds.
func waitFor(t *testing.T, nav *navtest.Session, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok := false
		nav.UI(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var shown []string
			nav.UI(func() {
				for _, sc := range nav.Pushed() {
					if v, ok := sc.(interface{ Primitive() tview.Primitive }); ok {
						if tb, ok := v.Primitive().(*tview.Table); ok {
							shown = append(shown, navtest.TableRows(tb)...)
						}
					}
				}
			})
			t.Fatalf("timed out waiting for %s; tables show %q", what, shown)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// rows are the table's rows under the UI lock.
func rows(nav *navtest.Session, table *tview.Table) []string {
	var out []string
	nav.UI(func() { out = navtest.TableRows(table) })
	return out
}

func TestSpecOpensTheReleasesOfANamespace(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		title string
		rows  string // the rows' source's type
		err   string
	}{
		{nil, "shop", "*helm.Source", ""},
		{[]string{"all"}, "all", "*helm.Source", ""},
		{[]string{"data"}, "data", "*helm.Source", ""},
		{[]string{"shop,data"}, "shop,data", "*union.Namespaces", ""},
		{[]string{"@a,@b"}, "shop @a,@b", "*union.Clusters", ""},
		{[]string{"all", "@a,@b"}, "all @a,@b", "*union.Clusters", ""},
		{[]string{"data", "web"}, "", "", "helm: one word for the namespaces (NS, NS,NS… or all), not 2"},
		{[]string{"Shop!"}, "", "", `helm: invalid namespace "Shop!": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{[]string{"@nope"}, "", "", "helm: " + `no context "nope" in the kubeconfig`},
	} {
		_, s := newReleases(t)
		s.Contexts = []string{"a", "b"}
		s.UI(func() { Spec.Commands[0].Run(s, tc.args) })
		pushed := s.Pushed()
		if tc.err != "" {
			if len(pushed) != 0 || len(s.Errors()) != 1 || !strings.HasPrefix(s.Errors()[0], tc.err) {
				t.Errorf("%v: pushed %d, errors %q", tc.args, len(pushed), s.Errors())
			}
			continue
		}
		if len(pushed) != 1 {
			t.Fatalf("%v: pushed %d screens, errors %q", tc.args, len(pushed), s.Errors())
		}
		v := pushed[0].(*Releases)
		if got := fmt.Sprintf("%T", v.rows); v.title != tc.title || got != tc.rows {
			t.Errorf("%v: releases of %q over %s, want %q over %s", tc.args, v.title, got, tc.title, tc.rows)
		}
	}
	if names := Spec.Commands[0].Names; strings.Join(names, ",") != "helm,hr,releases" {
		t.Errorf("command names %v", names)
	}
}

func TestReleasesTableIsLiveAndOpensRevisionsAndTexts(t *testing.T) {
	c, s := newReleases(t)
	s.UI(func() { Spec.Commands[0].Run(s, nil) })
	v := s.Pushed()[0].(*Releases)
	c.install(t, "web", 1, common.StatusSuperseded)
	c.install(t, "web", 2, common.StatusDeployed)
	c.install(t, "api", 1, common.StatusFailed)
	s.UI(v.Activate)
	want := []string{
		"NAME   REVISION   STATUS   CHART   APP VERSION   UPDATED  ",
		"api   1   failed   shop-1.1.0   2.1.1.0   59m  ",
		"web   2   deployed   shop-1.2.0   2.1.2.0   58m  ",
	}
	waitFor(t, s, "the releases with their charts", func() bool { return strings.Join(navtest.TableRows(v.table), "\n") == strings.Join(want, "\n") })

	// A new revision shows live.
	c.install(t, "web", 3, common.StatusDeployed)
	waitFor(t, s, "revision 3", func() bool {
		return strings.Contains(strings.Join(navtest.TableRows(v.table), "\n"), "web   3   deployed   shop-1.3.0")
	})

	// The filter keeps the matching releases; esc shows all again.
	s.Press(v, tcell.NewEventKey(tcell.KeyRune, '/', 0))
	if !s.Answer("fail") {
		t.Fatal("the filter asked nothing")
	}
	if got := rows(s, v.table); len(got) != 2 || !strings.HasPrefix(got[1], "api ") {
		t.Errorf("filtered rows %q", got)
	}
	s.UI(func() { v.Escape() })

	// enter on web: its revisions, newest first, each decoded.
	s.UI(func() { v.table.Select(2, 0) })
	s.Press(v, tcell.NewEventKey(tcell.KeyEnter, 0, 0))
	revs := s.Pushed()[1].(*Revisions)
	s.UI(revs.Activate)
	waitFor(t, s, "the revisions decoded", func() bool {
		r := navtest.TableRows(revs.table)
		return len(r) == 4 && strings.HasPrefix(r[1], "3  ") && strings.Contains(r[3], "shop-1.1.0") && strings.Contains(r[3], "Upgrade complete")
	})

	// v on revision 2 (selected below the newest): the user's values of revision 2, fixed.
	s.UI(func() { revs.table.Select(2, 0) })
	s.Press(revs, tcell.NewEventKey(tcell.KeyRune, 'v', 0))
	text := s.Pushed()[2].(*Text)
	s.UI(text.Activate)
	waitFor(t, s, "the values of revision 2", func() bool { return text.rel == "replicas: 2\n" && text.rev.Number == 2 })
	s.Press(text, tcell.NewEventKey(tcell.KeyRune, 'a', 0))
	waitFor(t, s, "all values", func() bool { return text.rel == "image:\n  tag: stable\nreplicas: 2\n" })
	s.Press(text, tcell.NewEventKey(tcell.KeyRune, 'c', 0))
	if cp := s.Copied(); len(cp) != 1 || cp[0].Text != "image:\n  tag: stable\nreplicas: 2\n" {
		t.Errorf("copied %+v", cp)
	}

	// enter on revision 1 in the revisions: its values and manifest against the latest's; on the latest, a
	// word instead.
	s.UI(func() { revs.table.Select(3, 0) })
	s.Press(revs, tcell.NewEventKey(tcell.KeyEnter, 0, 0))
	diff := s.Pushed()[3].(*Diff)
	s.UI(diff.Activate)
	waitFor(t, s, "the diff", func() bool {
		d := diff.text.GetText(true)
		return strings.Contains(d, "- replicas: 1") && strings.Contains(d, "+ replicas: 3") && strings.Contains(d, "# manifest")
	})
	s.UI(func() { revs.table.Select(1, 0) })
	s.Press(revs, tcell.NewEventKey(tcell.KeyEnter, 0, 0))
	if errs := s.Errors(); len(errs) == 0 || !strings.Contains(errs[len(errs)-1], "revision 3 is the latest") {
		t.Errorf("enter on the latest revision: errors %q", errs)
	}
}

func TestTextOnAReleaseFollowsItsLatestRevision(t *testing.T) {
	c, s := newReleases(t)
	src := startedSource(t, c)
	c.install(t, "web", 1, common.StatusDeployed)
	var text *Text
	s.UI(func() {
		text = NewText(s, src, "shop/web", 0, manifest)
		text.Activate()
	})
	waitFor(t, s, "the manifest of revision 1", func() bool {
		text.follow()
		return text.rev.Number == 1 && strings.Contains(text.rel, "kind: ConfigMap")
	})
	c.install(t, "web", 2, common.StatusDeployed)
	// Each tick (follow) reads the latest revision again.
	waitFor(t, s, "revision 2 followed", func() bool {
		text.follow()
		return text.rev.Number == 2
	})
	var title string
	s.UI(func() { title = text.text.View().GetTitle() })
	if !strings.Contains(title, "manifest") || !strings.Contains(title, "shop/web #2") {
		t.Errorf("title %q", title)
	}
	s.UI(func() { text.Close() })
}

var _ ui.Screen = (*Text)(nil)

func TestReleaseSecretsAreHiddenInSecretsTables(t *testing.T) {
	h := Spec.Hidden[0]
	if !h.Applies(discovery.Resource{Version: "v1", Name: "secrets"}) || h.Applies(discovery.Resource{Version: "v1", Name: "configmaps"}) ||
		h.Applies(discovery.Resource{Group: "example.com", Version: "v1", Name: "secrets"}) {
		t.Error("hidden in the wrong tables")
	}
	cols := []watch.Column{{Name: "NAMESPACE"}, {Name: "Name"}, {Name: "Type"}, {Name: "Data"}}
	for _, tc := range []struct {
		typ  string
		want bool
	}{{"helm.sh/release.v1", true}, {"Opaque", false}, {"helm.sh/release.v2", false}} {
		row := &watch.Row{Cells: []string{"shop", "x", tc.typ, "1"}}
		if got := h.Rows.Hide(cols, row); got != tc.want {
			t.Errorf("type %s: hidden %v, want %v", tc.typ, got, tc.want)
		}
	}
	if h.Rows.Hide([]watch.Column{{Name: "Name"}}, &watch.Row{Cells: []string{"x"}}) {
		t.Error("a table without a Type column hides rows")
	}
}

func TestDescribeOnARevision(t *testing.T) {
	c, s := newReleases(t)
	src := startedSource(t, c)
	c.install(t, "web", 1, common.StatusDeployed)
	revs := NewRevisions(s, src, "shop/web", nil)
	s.UI(revs.Activate)
	waitFor(t, s, "the revision", func() bool { revs.refresh(); return len(revs.revs) == 1 })
	s.Press(revs, tcell.NewEventKey(tcell.KeyRune, 'd', 0))
	text := s.Pushed()[0].(*Text)
	s.UI(text.Activate)
	waitFor(t, s, "the description", func() bool {
		return strings.Contains(text.rel, "Revision:       1\n") && strings.Contains(text.rel, "Chart:          shop-1.1.0\n") &&
			strings.Contains(text.rel, "Resources:\n  ConfigMap")
	})
	var title string
	s.UI(func() { title = text.text.View().GetTitle() })
	if !strings.Contains(title, "describe") {
		t.Errorf("title %q", title)
	}
	if revs.Bindings()[len(revs.Bindings())-2].Name == keys.Rollback.Name {
		t.Error("a revisions view without a guard offers the rollback")
	}
}
