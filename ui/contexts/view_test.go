package contexts

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/cluster"
	"kscope/ui/keymap"
	"kscope/ui/navtest"
)

// inContext is a connection to context name: all the screen asks of it is its Info.
type inContext struct {
	cluster.Interface
	name string
}

func (c inContext) Info() cluster.Info { return cluster.Info{Context: c.name} }

// TestContextsListAndSwitch: the screen reads the contexts off the UI goroutine and lists them (name, cluster,
// user, namespace, read-only), the current one marked and selected; Enter on another switches to it, on the
// current one it only says so; its keys are the family's in keymap.Keys.
func TestContextsListAndSwitch(t *testing.T) {
	nav := navtest.New(t, inContext{name: "viewer"})
	var used []string
	list := func() ([]cluster.KubeContext, error) {
		return []cluster.KubeContext{
			{Name: "admin", Cluster: "devcluster", User: "admin", Namespace: "shop"},
			{Name: "viewer", Cluster: "devcluster", User: "viewer", ReadOnly: true},
			{Name: "[red]x", Cluster: "c", User: "u"},
		}, nil
	}
	v := New(nav, list, func(name string) { used = append(used, name) }).(*View)
	nav.Push(v)
	nav.Wait()
	var got []string
	nav.UI(func() { got = navtest.TableRows(v.table) })
	want := []string{
		"NAME CLUSTER USER NAMESPACE READ-ONLY",
		"admin devcluster admin shop ",
		"viewer(*) devcluster viewer  yes",
		"[red[]x c u  ", // (escaped: a name is text, never a color tag)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r, _ := v.table.GetSelection(); r != 2 {
		t.Errorf("selected row %d, want the current context's (2)", r)
	}
	if s := v.Status(); s != "3 contexts  current: viewer" {
		t.Errorf("status %q", s)
	}

	enter := tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
	nav.Press(v, enter) // (Press takes the UI lock itself)
	if len(used) != 0 || len(nav.Messages()) != 1 || nav.Messages()[0] != "already in context viewer" {
		t.Errorf("enter on the current context: used %v, messages %q", used, nav.Messages())
	}
	nav.UI(func() { v.table.Select(1, 0) })
	nav.Press(v, enter)
	if len(used) != 1 || used[0] != "admin" {
		t.Errorf("enter on admin switched to %v", used)
	}

	b := v.Bindings()
	if len(b) != 3 || b[0].Name != "help" || b[1].Name != keymap.Keys.Contexts.Use.Name || b[1].Label != "enter" || b[2].Name != "quit" {
		t.Errorf("bindings %+v: want help, use (enter), quit", b)
	}
}

// TestContextsUnreadable: a kubeconfig that cannot be read is said on the status line, and Enter switches
// nowhere.
func TestContextsUnreadable(t *testing.T) {
	nav := navtest.New(t, inContext{name: "admin"})
	v := New(nav, func() ([]cluster.KubeContext, error) { return nil, errors.New("read the kubeconfig: no such file") },
		func(string) { t.Error("switched") }).(*View)
	nav.Push(v)
	nav.Wait()
	var status string
	nav.UI(func() { status = v.Status(); v.useSelected() })
	if status != "[red]read the kubeconfig: no such file[-]" {
		t.Errorf("status %q", status)
	}
	if errs := nav.Errors(); len(errs) != 1 || errs[0] != "no context selected" {
		t.Errorf("errors %q", errs)
	}
}
