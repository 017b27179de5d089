package containers

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/navtest"
	"kscope/watch"
)

var podsRes = discovery.Resource{Version: "v1", Name: "pods", Kind: "Pod", Namespaced: true}

// podWatch is a cluster whose one object watch sends what the test puts on events; watched records what was
// asked for. Anything else panics (the nil cluster.Interface).
type podWatch struct {
	cluster.Interface
	events  chan watch.ObjectEvent
	watched chan string
}

func (c *podWatch) WatchObject(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) <-chan watch.ObjectEvent {
	c.watched <- gvr.Resource + " " + ns + "/" + name
	out := make(chan watch.ObjectEvent)
	go func() {
		defer close(out)
		for {
			select {
			case <-ctx.Done():
				return
			case ev := <-c.events:
				select {
				case out <- ev:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// podObject is pod web with an init container and two containers; app has restarts restarts.
func podObject(restarts int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "web", "namespace": "shop"},
		"spec": map[string]any{
			"initContainers": []any{map[string]any{"name": "init", "image": "busybox"}},
			"containers": []any{
				map[string]any{"name": "app", "image": "nginx", "ports": []any{map[string]any{"name": "http", "containerPort": int64(80)}}},
				map[string]any{"name": "[red]log", "image": "fluentd"}},
		},
		"status": map[string]any{
			"initContainerStatuses": []any{map[string]any{"name": "init", "ready": false, "restartCount": int64(0),
				"state": map[string]any{"terminated": map[string]any{"reason": "Completed", "exitCode": int64(0)}}}},
			"containerStatuses": []any{
				map[string]any{"name": "app", "ready": true, "restartCount": restarts, "state": map[string]any{"running": map[string]any{}}},
				map[string]any{"name": "[red]log", "ready": true, "restartCount": int64(0), "state": map[string]any{"running": map[string]any{}}}},
		},
	}}
}

// eventually waits (at most 5 s) until cond holds, read as the UI goroutine.
func eventually(t *testing.T, nav *navtest.Nav, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		ok := false
		nav.UI(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// TestContainersFollowThePod: the screen watches its pod and lists its containers (init marked, names
// escaped), titled and crumbed containers(POD); the keys ui hands it act on the selected container, which
// stays selected as the pod changes; once the pod is deleted they only say so.
func TestContainersFollowThePod(t *testing.T) {
	c := &podWatch{events: make(chan watch.ObjectEvent), watched: make(chan string, 1)}
	nav := navtest.New(t, c)
	var acted []string
	ctr := ui.ContainerView{Keys: func(selected func() (string, bool)) []keymap.Binding {
		on := func(what string) func() {
			return func() {
				if name, ok := selected(); ok {
					acted = append(acted, what+" "+name)
				}
			}
		}
		return []keymap.Binding{keymap.Keys.Containers.Logs.Bind(on("logs")), keymap.Keys.Containers.Shell.Bind(on("shell"))}
	}}
	v := New(nav, podsRes, &watch.Row{Key: "shop/web", Namespace: "shop", Name: "web"}, ctr).(*View)
	nav.Push(v)
	if got := <-c.watched; got != "pods shop/web" {
		t.Errorf("watched %q", got)
	}
	if v.Crumb() != "containers(web)" {
		t.Errorf("crumb %q", v.Crumb())
	}
	c.events <- watch.ObjectEvent{Object: podObject(1)}
	eventually(t, nav, "the containers listed", func() bool { return len(v.rows) == 3 })
	var rows []string
	var title string
	nav.UI(func() { rows, title = navtest.TableRows(v.table), v.table.GetTitle() })
	want := []string{
		"NAME TYPE IMAGE READY STATE RESTARTS PORTS PROBES(L:R:S)",
		"init init busybox false Completed 0  off:off:off",
		"app  nginx true Running 1 http:80/TCP off:off:off",
		"[red[]log  fluentd true Running 0  off:off:off", // (escaped: a name is text, never a color tag)
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(title, "containers(web)") || !strings.Contains(title, "[3]") {
		t.Errorf("title %q", title)
	}

	l := tcell.NewEventKey(tcell.KeyRune, 'l', tcell.ModNone)
	nav.UI(func() { v.table.Select(3, 0) })
	nav.Press(v, l)
	c.events <- watch.ObjectEvent{Object: podObject(2)} // a restart of app: the selection stays on [red]log
	eventually(t, nav, "the restart shown", func() bool { return v.rows[1].Restarts == 2 })
	nav.Press(v, tcell.NewEventKey(tcell.KeyRune, 's', tcell.ModNone))
	if strings.Join(acted, ",") != "logs [red]log,shell [red]log" {
		t.Errorf("the keys acted on %q, want logs and shell of [red]log", acted)
	}

	c.events <- watch.ObjectEvent{Deleted: true}
	eventually(t, nav, "the deletion shown", func() bool { return v.deleted })
	nav.Press(v, l)
	if len(acted) != 2 || len(nav.Errors()) != 1 || nav.Errors()[0] != "pod web was deleted" {
		t.Errorf("after the deletion: acted %q, errors %q", acted, nav.Errors())
	}
	if s := v.Status(); !strings.Contains(s, "pod web was deleted") {
		t.Errorf("status %q", s)
	}
	b := v.Bindings()
	if len(b) != 4 || b[0].Name != "help" || b[1].Name != keymap.Keys.Containers.Logs.Name || b[3].Name != "quit" {
		t.Errorf("bindings %+v: want help, the container keys, quit", b)
	}
}

// TestContainersUnreadable: a watch error is said on the status line and no container is selected.
func TestContainersUnreadable(t *testing.T) {
	c := &podWatch{events: make(chan watch.ObjectEvent), watched: make(chan string, 1)}
	nav := navtest.New(t, c)
	v := New(nav, podsRes, &watch.Row{Key: "shop/web", Namespace: "shop", Name: "web"}, ui.ContainerView{}).(*View)
	nav.Push(v)
	<-c.watched
	c.events <- watch.ObjectEvent{Err: errors.New(`pods "web" is forbidden`)}
	eventually(t, nav, "the error shown", func() bool { return v.err != "" })
	var status string
	nav.UI(func() {
		status = v.Status()
		v.selected()
	})
	if status != `[red]pods "web" is forbidden[-]` {
		t.Errorf("status %q", status)
	}
	if errs := nav.Errors(); len(errs) != 1 || errs[0] != "no container selected" {
		t.Errorf("errors %q", errs)
	}
}

// TestContainersCloseStopsTheWatch: Close ends the pod's watch and the goroutine that follows it, and the
// screen, not used after Close, never watches again.
func TestContainersCloseStopsTheWatch(t *testing.T) {
	c := &podWatch{events: make(chan watch.ObjectEvent), watched: make(chan string, 2)}
	nav := navtest.New(t, c)
	v := New(nav, podsRes, &watch.Row{Key: "shop/web", Namespace: "shop", Name: "web"}, ui.ContainerView{}).(*View)
	nav.Push(v)
	<-c.watched
	c.events <- watch.ObjectEvent{Object: podObject(1)}
	eventually(t, nav, "the containers listed", func() bool { return len(v.rows) == 3 })
	nav.UI(v.Close)
	ended := make(chan struct{})
	go func() { nav.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the watch still followed the pod after Close")
	}
	nav.UI(v.Activate)
	select {
	case got := <-c.watched:
		t.Errorf("watched %q again after Close", got)
	default:
	}
}
