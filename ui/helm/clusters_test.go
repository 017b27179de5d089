package helm

import (
	"context"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"helm.sh/helm/v4/pkg/release/common"

	"kscope/cluster"
	"kscope/helm/helmtest"
	"kscope/ui/navtest"
)

// TestReleasesOverClustersActInTheRowsCluster: `:helm @a,@b` shows both clusters' releases with their
// contexts; enter on b's release lists b's revisions; a write to it is refused (the view is a's), one to a's
// release asks as in a table of one cluster.
func TestReleasesOverClustersActInTheRowsCluster(t *testing.T) {
	c, s := newReleases(t)
	other := &releases{sources: &helmtest.Sources{}, store: &helmtest.Store{}}
	s.Contexts = []string{"a", "b"}
	s.Dial = func(_ context.Context, name string) (cluster.Interface, error) {
		if name == "a" {
			return c, nil // the view's own connection
		}
		return other, nil
	}
	s.UI(func() { Spec.Commands[0].Run(s, []string{"@a,@b"}) })
	v := s.Pushed()[0].(*Releases)
	s.UI(v.Activate)
	waitFor(t, s, "both clusters' sources", func() bool {
		return c.sources.Part("secrets") != nil && other.sources.Part("secrets") != nil
	})
	c.install(t, "web", 1, common.StatusDeployed)
	other.install(t, "api", 1, common.StatusSuperseded)
	other.install(t, "api", 2, common.StatusDeployed)
	waitFor(t, s, "both releases with their charts", func() bool {
		shown := navtest.TableRows(v.table) // (waitFor holds the UI lock)
		return len(shown) == 3 && strings.Contains(strings.Join(shown, "\n"), "a   web   1   deployed   shop-1.1.0") &&
			strings.Contains(strings.Join(shown, "\n"), "b   api   2   deployed   shop-1.2.0")
	})
	if got := rows(s, v.table)[0]; !strings.HasPrefix(got, "CONTEXT   NAME") {
		t.Errorf("header %q", got)
	}
	selectRow := func(name string) {
		s.UI(func() {
			for i, r := range v.content.Rows() {
				if r.Name == name {
					v.table.Select(i+1, 0)
				}
			}
		})
	}

	selectRow("api")
	s.Press(v, tcell.NewEventKey(tcell.KeyCtrlD, 0, 0))
	if errs := s.Errors(); len(errs) != 1 || errs[0] != "refusing to uninstall release shop/api: it is in context b, not the view's; open it there (:ctx b, then :helm)" {
		t.Errorf("errors %q", errs)
	}
	if len(s.Choices()) != 0 || len(other.helm.all()) != 0 {
		t.Errorf("b's release: asked %+v, wrote %q", s.Choices(), other.helm.all())
	}
	s.Press(v, tcell.NewEventKey(tcell.KeyEnter, 0, 0))
	revs, ok := s.Pushed()[len(s.Pushed())-1].(*Revisions)
	if !ok {
		t.Fatalf("enter pushed %T", s.Pushed()[len(s.Pushed())-1])
	}
	s.UI(revs.Activate)
	waitFor(t, s, "b's two revisions", func() bool { return len(revs.revs) == 2 && revs.key == "shop/api" })

	selectRow("web")
	s.Press(v, tcell.NewEventKey(tcell.KeyCtrlD, 0, 0))
	if ch := s.Choices(); len(ch) != 1 || !strings.Contains(ch[0].Title, "Uninstall release shop/web (revision 1)?") {
		t.Errorf("a's release: choices %+v", ch)
	}
}
