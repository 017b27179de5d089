package ui

import (
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/discovery"
	"kscope/watch"
)

// stubContainersOn is the tests' containers screen (the real one, package ui/containers, imports ui): a line
// naming the pod, with the keys ui hands it acting on container, as if it were selected.
func stubContainersOn(container string) func(Navigator, discovery.Resource, *watch.Row, ContainerView) Screen {
	return func(nav Navigator, _ discovery.Resource, row *watch.Row, ctr ContainerView) Screen {
		view := tview.NewTextView().SetText("containers stub of " + row.Name)
		view.SetBorder(true)
		keys := ctr.Keys(func() (string, bool) { return container, true })
		return &stubScreen{nav: nav, text: view, keys: keys}
	}
}

// withPodContainers gives the fixture pod containers app (port 8080) and sidecar (port 9090), and registers
// the stub containers screen acting on sidecar; the logs opener records the container it was asked for.
func withPodContainers(logged *[]string, mu *sync.Mutex) func(*Options) {
	return func(o *Options) {
		pod := o.Cluster.(*fakeCluster).objects["pods/shop/web-7d9f-abcde"]
		pod.Object["spec"] = map[string]any{"containers": []any{
			map[string]any{"name": "app", "image": "nginx:1.27",
				"ports": []any{map[string]any{"name": "http", "containerPort": int64(8080), "protocol": "TCP"}}},
			map[string]any{"name": "sidecar", "image": "busybox:1.36",
				"ports": []any{map[string]any{"name": "metrics", "containerPort": int64(9090), "protocol": "TCP"}}},
		}}
		o.Registered[0].Plays.Containers = stubContainersOn("sidecar")
		o.Registered[0].Plays.Logs = func(nav Navigator, res discovery.Resource, row *watch.Row, previous bool, s LogSettings) {
			mu.Lock()
			*logged = append(*logged, map[bool]string{false: "logs ", true: "previous "}[previous]+s.Container)
			mu.Unlock()
			stubLogs(nav, res, row, previous, s)
		}
	}
}

// TestEnterOnPodOpensContainers: Enter on a pod opens the registered containers screen (y still opens the
// YAML); the keys ui hands it act on the container it names: l and p open that container's logs, s runs
// the shell in it and shift-f offers its ports only, without asking which container; esc comes back to the
// pods with the pod selected.
func TestEnterOnPodOpensContainers(t *testing.T) {
	var logged []string
	var mu sync.Mutex
	h, _ := startShellTest(t, withPodContainers(&logged, &mu))
	h.press(tcell.KeyEnter, 0)
	h.eventually("containers stub of web-7d9f-abcde")
	h.press(tcell.KeyRune, 'l')
	h.eventually("logs stub of pods web-7d9f-abcde")
	h.press(tcell.KeyEscape, 0)
	h.eventually("containers stub of web-7d9f-abcde")
	h.press(tcell.KeyRune, 'p')
	h.eventually("logs stub of pods web-7d9f-abcde (previous)")
	h.press(tcell.KeyEscape, 0)
	h.eventually("containers stub of web-7d9f-abcde")
	mu.Lock()
	if strings.Join(logged, ",") != "logs sidecar,previous sidecar" {
		t.Errorf("the logs opened %q, want sidecar's and its previous", logged)
	}
	mu.Unlock()

	h.press(tcell.KeyRune, 's')
	h.eventually("shell in shop/web-7d9f-abcde (sidecar) ended") // (no container picker)
	h.press(tcell.KeyRune, 'F')
	h.eventually("port-forward shop/web-7d9f-abcde:9090 from local port:") // (sidecar's one port: no port picker)
	h.press(tcell.KeyEscape, 0)

	h.until("the prompt closed", func() bool { return !h.app.bar.Active() })
	h.press(tcell.KeyEscape, 0)
	h.eventually("pods(shop)[1] </abcde>")
	h.lacks("containers stub")
	h.press(tcell.KeyRune, 'y')
	h.eventually("kind: Pod")
}

// TestContainerWritesChecked: the container screen's shell and port-forward are refused in read-only mode
// before any question, and said not permitted (on its status line, on a press) when the server says no.
func TestContainerWritesChecked(t *testing.T) {
	var logged []string
	var mu sync.Mutex
	ro, _ := startShellTest(t, func(o *Options) { withPodContainers(&logged, &mu)(o); o.ReadOnly = true })
	ro.press(tcell.KeyEnter, 0)
	ro.eventually("containers stub of web-7d9f-abcde")
	ro.press(tcell.KeyRune, 's')
	ro.eventually("read-only mode: refusing to shell pods shop/web-7d9f-abcde (container sidecar)")
	ro.press(tcell.KeyRune, 'F')
	ro.eventually("read-only mode: refusing to port-forward pods shop/web-7d9f-abcde (container sidecar)")
	if w := writes(ro); len(w) != 0 {
		t.Errorf("read-only: calls %q", w)
	}

	h, _ := startShellTest(t, func(o *Options) {
		withPodContainers(&logged, &mu)(o)
		o.Cluster.(*fakeCluster).denied["create pods/exec shop"] = true
	})
	h.press(tcell.KeyEnter, 0)
	h.eventually("containers stub of web-7d9f-abcde")
	h.press(tcell.KeyRune, 's')
	h.eventually("not permitted: you may not shell pods shop/web-7d9f-abcde (container sidecar) (RBAC")
	if w := writes(h); len(w) != 0 {
		t.Errorf("denied: calls %q", w)
	}
}
