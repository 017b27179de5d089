package helm

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
	"helm.sh/helm/v4/pkg/release/common"

	"kscope/cluster"
)

// helmCalls records the Helm writes asked of a releases cluster.
type helmCalls struct {
	mu    sync.Mutex
	calls []string
}

func (h *helmCalls) add(call string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.calls = append(h.calls, call)
}

func (h *helmCalls) all() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.calls...)
}

func (c *releases) HelmRollback(_ context.Context, r cluster.HelmRelease, revision int) error {
	c.helm.add(fmt.Sprintf("rollback %s/%s %s to %d latest=%d", r.Namespace, r.Name, r.Driver, revision, r.Latest))
	return nil
}

func (c *releases) HelmUninstall(_ context.Context, r cluster.HelmRelease, keep bool) (string, error) {
	c.helm.add(fmt.Sprintf("uninstall %s/%s %s keep-history=%v latest=%d", r.Namespace, r.Name, r.Driver, keep, r.Latest))
	return "release \"web\" uninstalled", nil
}

func TestRollbackAsksThenRollsBackWithThePrecondition(t *testing.T) {
	c, s := newReleases(t)
	s.UI(func() { Spec.Commands[0].Run(s, nil) })
	v := s.Pushed()[0].(*Releases)
	for n := 1; n <= 3; n++ {
		c.install(t, "web", n, common.StatusDeployed)
	}
	s.UI(v.Activate)
	waitFor(t, s, "web's revision 3", func() bool { return len(v.content.Rows()) == 1 && v.content.Rows()[0].Cells[1] == "3" })
	s.Press(v, tcell.NewEventKey(tcell.KeyEnter, 0, 0))
	revs := s.Pushed()[1].(*Revisions)
	s.UI(revs.Activate)
	waitFor(t, s, "the charts", func() bool {
		return revs.chart(revs.revs[2]) == "shop-1.1.0" && revs.chart(revs.revs[0]) == "shop-1.3.0"
	})

	// r on the latest: nothing to roll back to.
	s.UI(func() { revs.table.Select(1, 0) })
	s.Press(revs, tcell.NewEventKey(tcell.KeyRune, 'r', 0))
	if errs := s.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "revision 3 is the latest") {
		t.Fatalf("errors %q", errs)
	}
	// r on revision 1: the guard of a create beside the latest revision's Secret, a question, then the write.
	s.UI(func() { revs.table.Select(3, 0) })
	s.Press(revs, tcell.NewEventKey(tcell.KeyRune, 'r', 0))
	if g := s.Guarded(); len(g) == 0 || g[len(g)-1] != "create secrets shop/sh.helm.release.v1.web.v3" {
		t.Errorf("guards asked %q", g)
	}
	conf := s.Confirmations()
	if len(conf) != 1 || conf[0].Action != "Roll back" ||
		!strings.Contains(conf[0].Question, "Roll back release shop/web from revision 3 (shop-1.3.0) to revision 1 (shop-1.1.0)?") {
		t.Fatalf("confirmations %+v", conf)
	}
	if calls := c.helm.all(); len(calls) != 0 {
		t.Fatalf("wrote before the answer: %q", calls)
	}
	s.UI(conf[0].Do)
	waitFor(t, s, "the rollback", func() bool { return len(c.helm.all()) == 1 })
	if got := c.helm.all()[0]; got != "rollback shop/web secret to 1 latest=3" {
		t.Errorf("call %q", got)
	}
	waitFor(t, s, "its message", func() bool {
		m := s.Messages()
		return len(m) > 0 && m[len(m)-1] == "rolled back release shop/web to revision 1 (now revision 4)"
	})
}

func TestUninstallAsksHowAndRefusedByTheGuardAsksNothing(t *testing.T) {
	c, s := newReleases(t)
	s.UI(func() { Spec.Commands[0].Run(s, nil) })
	v := s.Pushed()[0].(*Releases)
	c.install(t, "web", 1, common.StatusSuperseded)
	c.install(t, "web", 2, common.StatusDeployed)
	s.UI(v.Activate)
	waitFor(t, s, "web's revision 2", func() bool { return len(v.content.Rows()) == 1 && v.content.Rows()[0].Cells[1] == "2" })

	s.Press(v, tcell.NewEventKey(tcell.KeyCtrlD, 0, 0))
	ch := s.Choices()
	if len(ch) != 1 || !strings.Contains(ch[0].Title, "Uninstall release shop/web (revision 2)?") || ch[0].Selected != 0 || ch[0].Items[0] != "Cancel" {
		t.Fatalf("choices %+v", ch)
	}
	s.Pick(0) // Cancel
	s.Press(v, tcell.NewEventKey(tcell.KeyCtrlD, 0, 0))
	s.Pick(2) // keep the history
	waitFor(t, s, "the uninstall", func() bool { return len(c.helm.all()) == 1 })
	if got := c.helm.all()[0]; got != "uninstall shop/web secret keep-history=true latest=2" {
		t.Errorf("call %q", got)
	}
	if g := s.Guarded(); len(g) == 0 || g[len(g)-1] != "delete secrets shop/sh.helm.release.v1.web.v2" {
		t.Errorf("guards asked %q", g)
	}

	// Refused by the guard (read-only mode): no question, nothing written.
	c2, ro := newReleases(t)
	ro.Guard.Permitted = func(what string, _ func()) { ro.Errorf("read-only mode: refusing to %s", what) }
	ro.UI(func() { Spec.Commands[0].Run(ro, nil) })
	v2 := ro.Pushed()[0].(*Releases)
	c2.install(t, "web", 1, common.StatusDeployed)
	ro.UI(v2.Activate)
	waitFor(t, ro, "web", func() bool { return len(v2.content.Rows()) == 1 })
	ro.Press(v2, tcell.NewEventKey(tcell.KeyCtrlD, 0, 0))
	if len(ro.Choices()) != 0 || len(c2.helm.all()) != 0 {
		t.Errorf("read-only: asked %+v, wrote %q", ro.Choices(), c2.helm.all())
	}
	if errs := ro.Errors(); len(errs) != 1 || errs[0] != "read-only mode: refusing to uninstall release shop/web" {
		t.Errorf("errors %q", errs)
	}
}
