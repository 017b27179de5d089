package rollouts

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/navtest"
	"kscope/watch"
)

// rollouts is a cluster with two revisions of deployment shop/web (the second current) and records the
// undos asked of it.
type rollouts struct {
	cluster.Interface
	mu    sync.Mutex
	calls []string
}

func podTemplate(image string) map[string]any {
	return map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "app", "image": image}}}}
}

func (c *rollouts) Revisions(_ context.Context, gvr schema.GroupVersionResource, ns, name string) ([]cluster.Revision, types.UID, error) {
	c.record(fmt.Sprintf("revisions %s %s/%s", gvr.Resource, ns, name))
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	return []cluster.Revision{
		{Number: 1, ChangeCause: "first [red]", Created: t0, Template: podTemplate("nginx:1.25")},
		{Number: 2, ChangeCause: "to 1.26", Created: t0.Add(time.Hour), Template: podTemplate("nginx:1.26"), Current: true},
	}, "uid-web", nil
}

func (c *rollouts) Undo(_ context.Context, gvr schema.GroupVersionResource, ns, name string, rev int64, uid types.UID, dryRun bool) (map[string]any, error) {
	c.record(fmt.Sprintf("undo %s %s/%s %d %s dry-run=%v", gvr.Resource, ns, name, rev, uid, dryRun))
	return podTemplate("nginx:1.25"), nil
}

func (c *rollouts) record(call string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, call)
}

func (c *rollouts) recorded() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

var (
	deployments = discovery.Resource{Group: "apps", Version: "v1", Name: "deployments", Kind: "Deployment", Namespaced: true}
	web         = &watch.Row{Key: "shop/web", Namespace: "shop", Name: "web", UID: "uid-web"}
)

// guard is a WriteGuard that permits, or refuses as read-only mode does (recording the refusal).
func guard(nav *navtest.Nav, permit bool) ui.WriteGuard {
	return ui.WriteGuard{
		Permitted: func(what string, do func()) {
			if !permit {
				nav.Errorf("read-only mode: refusing to %s", what)
				return
			}
			do()
		},
		Denied: func() bool { return false },
	}
}

// open pushes the screen and waits for its revisions.
func open(t *testing.T, c *rollouts, permit bool) (*navtest.Nav, *View) {
	nav := navtest.New(t, c)
	v := New(nav, deployments, web, guard(nav, permit)).(*View)
	nav.UI(func() {
		nav.Push(v)
		v.table.Select(1, 0) // as a draw while the revisions are read does
	})
	nav.Wait()
	return nav, v
}

var (
	enter = tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
	undo  = tcell.NewEventKey(tcell.KeyRune, 'u', tcell.ModNone)
)

// TestRevisionsListed: the screen reads the workload's revisions off the UI goroutine and lists them oldest
// first (REVISION with the current one marked and selected, CHANGE-CAUSE escaped, AGE, IMAGES); its keys are
// its family's in keymap.Keys.
func TestRevisionsListed(t *testing.T) {
	c := &rollouts{}
	nav, v := open(t, c, true)
	var got []string
	var sel int
	nav.UI(func() { got = navtest.TableRows(v.table); sel, _ = v.table.GetSelection() })
	want := []string{
		"REVISION CHANGE-CAUSE AGE IMAGES",
		"1 first [red[] 120m nginx:1.25",
		"2 (current) to 1.26 60m nginx:1.26",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sel != 2 {
		t.Errorf("selected row %d, want the current revision's (2)", sel)
	}
	if calls := c.recorded(); len(calls) != 1 || calls[0] != "revisions deployments shop/web" {
		t.Errorf("calls %q", calls)
	}
	b := v.Bindings()
	if len(b) != 4 || b[1].Name != keys.Diff.Name || b[1].Label != "enter" ||
		b[2].Name != keys.Undo.Name || b[2].Label != "u" {
		t.Errorf("bindings %+v: want help, diff (enter), undo (u), quit", b)
	}
}

// TestDiffAgainstCurrent: enter pushes the selected revision's template against the current one's.
func TestDiffAgainstCurrent(t *testing.T) {
	nav, v := open(t, &rollouts{}, true)
	nav.UI(func() { v.table.Select(1, 0) })
	nav.Press(v, enter)
	pushed := nav.Pushed()
	d, ok := pushed[len(pushed)-1].(*DiffView)
	if !ok {
		t.Fatalf("pushed %T, want the diff", pushed[len(pushed)-1])
	}
	text := d.text.GetText(true)
	if !strings.Contains(text, "-   - image: nginx:1.26") || !strings.Contains(text, "+   - image: nginx:1.25") {
		t.Errorf("diff:\n%s", text)
	}
}

// TestUndoAsksFirst: u on a revision tries the undo as a dry run, asks (naming the images before and after),
// and undoes with the workload's UID only when the action is chosen, then reads the revisions again; on the
// current revision it says there is nothing to undo.
func TestUndoAsksFirst(t *testing.T) {
	c := &rollouts{}
	nav, v := open(t, c, true)
	nav.Press(v, undo) // the current revision
	if msgs := nav.Messages(); len(msgs) == 0 || msgs[len(msgs)-1] != "revision 2 is the current one: nothing to undo" {
		t.Errorf("messages %q", msgs)
	}
	nav.UI(func() { v.table.Select(1, 0) })
	nav.Press(v, undo)
	nav.Wait()
	confirms := nav.Confirmations()
	if len(confirms) != 1 || confirms[0].Action != "Undo" ||
		!strings.Contains(confirms[0].Question, "Undo deployments web to revision 1?") ||
		!strings.Contains(confirms[0].Question, "images: nginx:1.26 → nginx:1.25") {
		t.Fatalf("confirmations %+v", confirms)
	}
	if calls := c.recorded(); strings.Join(calls[1:], ",") != "undo deployments shop/web 1 uid-web dry-run=true" {
		t.Fatalf("before the answer: calls %q, want the dry run only", calls)
	}
	nav.UI(confirms[0].Do)
	nav.Wait()
	want := "undo deployments shop/web 1 uid-web dry-run=true,undo deployments shop/web 1 uid-web dry-run=false,revisions deployments shop/web"
	if calls := c.recorded(); strings.Join(calls[1:], ",") != want {
		t.Errorf("calls %q, want %s", calls, want)
	}
	if msgs := nav.Messages(); msgs[len(msgs)-1] != "undid deployments shop/web to revision 1: rollout started" {
		t.Errorf("messages %q", msgs)
	}
}

// TestUndoRefused: when the guard refuses (read-only mode), nothing is sent, not even the dry run, and
// nothing is asked.
func TestUndoRefused(t *testing.T) {
	c := &rollouts{}
	nav, v := open(t, c, false)
	nav.UI(func() { v.table.Select(1, 0) })
	nav.Press(v, undo)
	nav.Wait()
	if calls := c.recorded(); len(calls) != 1 {
		t.Errorf("calls %q, want the read of the revisions only", calls)
	}
	if errs := nav.Errors(); len(errs) != 1 || errs[0] != "read-only mode: refusing to undo deployments shop/web to revision 1" {
		t.Errorf("errors %q", errs)
	}
	if len(nav.Confirmations()) != 0 {
		t.Error("asked")
	}
}
