package ui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/cluster"
	"kscope/discovery"
)

// withPorts gives the fixture pod two container ports (8080 http, 9090 metrics) and a UDP one not offered.
func withPorts(o *Options) {
	pod := o.Cluster.(*fakeCluster).objects["pods/shop/web-7d9f-abcde"]
	pod.Object["spec"] = map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27",
		"ports": []any{
			map[string]any{"name": "http", "containerPort": int64(8080), "protocol": "TCP"},
			map[string]any{"name": "dns", "containerPort": int64(53), "protocol": "UDP"},
			map[string]any{"name": "metrics", "containerPort": int64(9090), "protocol": "TCP"},
		}}}}
}

// waitForwards waits for n forwards to have been started and returns them.
func waitForwards(h *harness, n int) []*fakeForward {
	h.t.Helper()
	h.until(fmt.Sprintf("%d port-forwards", n), func() bool { return len(h.cluster.forwardsStarted()) >= n })
	return h.cluster.forwardsStarted()
}

// replacePrompt replaces the prompt line's text with text (ctrl-u, then typing).
func (h *harness) replacePrompt(text string) {
	h.t.Helper()
	h.press(tcell.KeyCtrlU, 0)
	h.typeText(text)
}

// freePort returns a local port nothing listens on now.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestPortForwardPodListStop: shift-f on a pod lists its TCP ports, the chosen one is suggested as the local
// port; Enter starts the forward (kscope listens on that port, the pod's forward on a loopback port of its
// own), which the app lists with how it stands (the :pf screen, package ui/portforwards, shows the list); :pf
// opens the registered screen; stopping the forward ends its context and frees the port.
func TestPortForwardPodListStop(t *testing.T) {
	h, _ := startShellTest(t, withPorts)
	h.press(tcell.KeyRune, 'F')
	h.eventually("port-forward to which port of web-7d9f-abcde")
	h.contains("8080/TCP  http, container web")
	h.contains("9090/TCP  metrics, container web")
	h.lacks("53/TCP")
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("port-forward shop/web-7d9f-abcde:9090 from local port:")
	var suggested string
	h.quietly(func() { suggested = h.app.bar.Text() })
	if n, err := strconv.Atoi(suggested); err != nil || n == 0 {
		t.Fatalf("suggested local port %q", suggested)
	}
	local := freePort(t)
	h.replacePrompt(strconv.Itoa(local))
	h.press(tcell.KeyEnter, 0)
	f := waitForwards(h, 1)[0]
	if f.req.Pod != "web-7d9f-abcde" || f.req.PodPort != 9090 || f.req.Address != "127.0.0.1" ||
		!slices.Contains(h.cluster.recorded(), "port-forward shop/web-7d9f-abcde 0:9090") { // any loopback port
		t.Errorf("forward %+v (calls %q)", f.req, h.cluster.recorded())
	}
	addr := fmt.Sprintf("127.0.0.1:%d", local)
	h.eventually("forwarding " + addr + " → shop/web-7d9f-abcde:9090")
	if l, err := net.Listen("tcp", addr); err == nil {
		l.Close()
		t.Errorf("nothing listens on %s", addr)
	}

	h.until("the forward listed", func() bool {
		return forwardsText(h.app) == addr+" → shop/web-7d9f-abcde:9090 12:00:00 forwarding to web-7d9f-abcde:9090 0"
	})
	h.command("pf")
	h.eventually("forwards stub of 1")
	h.quietly(func() { h.app.forwards.Stop(h.app.forwards.Items()[0]) }) // as ctrl-d in the screen (ui/portforwards)
	select {
	case <-f.ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the stopped forward's context did not end")
	}
	h.until(addr+" free again", func() bool {
		l, err := net.Listen("tcp", addr)
		if err == nil {
			l.Close()
		}
		return err == nil
	})
}

// forwardsText is the app's forwards, one "LOCAL → TARGET SINCE STATE MOVES" line each. UI goroutine.
func forwardsText(a *App) string {
	var lines []string
	for _, f := range a.forwards.Items() {
		lines = append(lines, fmt.Sprintf("%s → %s %s %s %d", f.Local, f.Target, f.Since.Format("15:04:05"), f.State(), f.Moves()))
	}
	return strings.Join(lines, "\n")
}

// TestPortForwardSuggestsFreePort: when the pod's port is taken locally, the suggestion is another port.
func TestPortForwardSuggestsFreePort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	taken := l.Addr().(*net.TCPAddr).Port
	h, _ := startShellTest(t, func(o *Options) {
		pod := o.Cluster.(*fakeCluster).objects["pods/shop/web-7d9f-abcde"]
		pod.Object["spec"] = map[string]any{"containers": []any{map[string]any{"name": "web",
			"ports": []any{map[string]any{"containerPort": int64(taken)}}}}}
	})
	h.press(tcell.KeyRune, 'F')
	h.eventually(fmt.Sprintf("port-forward shop/web-7d9f-abcde:%d from local port:", taken))
	var suggested string
	h.quietly(func() { suggested = h.app.bar.Text() })
	if n, err := strconv.Atoi(suggested); err != nil || n == taken || n == 0 {
		t.Errorf("suggested %q while %d is taken", suggested, taken)
	}
}

// TestPortForwardServiceTargetPort: a service's ports are offered resolved to the target port on its pod (a
// named target port looked up in the pod's container ports); the forward is the service's (it looks the
// target port up again on the next pod); a deployment reaches one of its pods.
func TestPortForwardServiceTargetPort(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) {
		withPorts(o)
		c := o.Cluster.(*fakeCluster)
		c.catalog = discovery.NewStaticCatalog(append(c.catalog.Resources(), discovery.Resource{Version: "v1",
			Name: "services", SingularName: "service", Kind: "Service", ShortNames: []string{"svc"}, Namespaced: true,
			Verbs: []string{"get", "list", "watch"}})...)
		c.columns["services"] = c.columns["secrets"]
		c.rows["services"] = c.rows["deployments"]
		c.objects["services/shop/web"] = serviceObject()
		pod, err := toPod(c.objects["pods/shop/web-7d9f-abcde"])
		if err != nil {
			panic(err)
		}
		c.streams.pods = map[string]*corev1.Pod{"services/shop/web": pod}
		o.Resource = "services"
	})
	h.eventually("services(shop)[1]")
	h.press(tcell.KeyRune, 'F')
	h.eventually("port-forward to which port of web-7d9f-abcde")
	h.contains("80 (http) → pod web-7d9f-abcde:8080")
	h.contains("9000 → pod web-7d9f-abcde:9090")
	h.press(tcell.KeyEnter, 0)
	h.eventually("port-forward shop/web-7d9f-abcde:8080 from local port:")
	h.replacePrompt("0")
	h.press(tcell.KeyEnter, 0)
	if f := waitForwards(h, 1)[0]; f.req.Pod != "web-7d9f-abcde" || f.req.PodPort != 8080 {
		t.Errorf("forward %+v", f.req)
	}
	h.eventually("→ service shop/web:80 (now pod web-7d9f-abcde:8080)")
	h.until("the service's forward listed", func() bool {
		items := h.app.forwards.Items()
		return len(items) == 1 && items[0].Target == "service shop/web:80" &&
			items[0].State() == "forwarding to web-7d9f-abcde:8080"
	})

	h.typeText(":deploy\n")
	h.eventually("deployments(shop)[1]")
	h.press(tcell.KeyRune, 'F')
	h.eventually("port-forward to which port of web-7d9f-abcde")
}

func serviceObject() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": "web", "namespace": "shop"},
		"spec": map[string]any{"selector": map[string]any{"app": "web"}, "ports": []any{
			map[string]any{"name": "http", "port": int64(80), "targetPort": "http"},
			map[string]any{"port": int64(9000), "targetPort": int64(9090)},
			map[string]any{"name": "syslog", "port": int64(514), "protocol": "UDP"},
		}}}}
}

// TestPortForwardFailuresAndMoves: a forward that cannot start (its local port in use, the cluster refusing
// it) is one line and is not listed; one whose pod goes waits for a pod of that name, says so, and forwards
// again to the new pod (one move); a context switch stops every forward.
func TestPortForwardFailuresAndMoves(t *testing.T) {
	other := fixtureCluster()
	other.info.Context = "viewer"
	h, _ := startShellTest(t, func(o *Options) {
		o.Connect = func(context.Context, string) (cluster.Interface, error) { return other, nil }
	})
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	forward := func(local int) {
		h.press(tcell.KeyRune, 'F')
		h.eventually("(no declared ports) to pod port:")
		h.typeText("8080\n")
		h.eventually("from local port:")
		h.replacePrompt(strconv.Itoa(local))
		h.press(tcell.KeyEnter, 0)
	}
	forward(taken.Addr().(*net.TCPAddr).Port)
	h.eventually(fmt.Sprintf("port-forward shop/web-7d9f-abcde:8080: unable to listen on port %d", taken.Addr().(*net.TCPAddr).Port))
	h.cluster.mu.Lock()
	h.cluster.streams.forwardErr = errors.New("port-forward shop/web-7d9f-abcde:8080: error upgrading connection: refused")
	h.cluster.mu.Unlock()
	forward(0)
	h.eventually("port-forward shop/web-7d9f-abcde:8080: error upgrading connection: refused")
	if n := len(h.app.forwards.Items()); n != 0 {
		t.Errorf("%d forwards listed after failed starts", n)
	}
	h.cluster.mu.Lock()
	h.cluster.streams.forwardErr = nil
	h.cluster.mu.Unlock()

	for range 2 {
		forward(0)
		h.eventually("forwarding 127.0.0.1:")
	}
	fs := waitForwards(h, 2) // the failed starts left none
	h.until("two forwards listed", func() bool { return len(h.app.forwards.Items()) == 2 })
	h.cluster.mu.Lock()
	pod := h.cluster.objects["pods/shop/web-7d9f-abcde"]
	delete(h.cluster.objects, "pods/shop/web-7d9f-abcde")
	h.cluster.mu.Unlock()
	fs[0].end <- errors.New("pod shop/web-7d9f-abcde was deleted")
	h.until("the forward waiting for its pod", func() bool {
		items := h.app.forwards.Items()
		return strings.HasPrefix(items[0].State(), "waiting for pod web-7d9f-abcde since 12:00:00 (") &&
			items[0].InGap() && items[1].State() == "forwarding to web-7d9f-abcde:8080" && h.app.forwards.Active() == 2
	})
	pod = pod.DeepCopy()
	pod.SetUID("uid-web-7d9f-abcde-2") // a pod of the same name, another one
	h.cluster.mu.Lock()
	h.cluster.objects["pods/shop/web-7d9f-abcde"] = pod
	h.cluster.mu.Unlock()
	h.until("the forward on the new pod", func() bool {
		items := h.app.forwards.Items()
		return items[0].State() == "forwarding to web-7d9f-abcde:8080" && items[0].Moves() == 1
	})
	if n := len(h.cluster.forwardsStarted()); n < 3 {
		t.Errorf("%d forwards to pods, want the new pod's too", n)
	}

	h.typeText(":ctx viewer\n")
	h.eventually("Context: viewer")
	for _, f := range h.cluster.forwardsStarted()[1:] { // all but the first pod's, over already
		select {
		case <-f.ctx.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the context switch did not stop the forward")
		}
	}
	var left string
	h.quietly(func() { left = forwardsText(h.app) })
	if left != "" {
		t.Errorf("the old context's forwards are still listed: %s", left)
	}
}

// TestPanicInAPortForwardStopsUIWithError: a forward's goroutines start through the session's supervisor: a
// panic in one (here its reconnect, once its stream ended) stops the UI and Run returns it; the process does
// not crash with the terminal left raw.
func TestPanicInAPortForwardStopsUIWithError(t *testing.T) {
	h, _ := startShellTest(t, nil)
	h.press(tcell.KeyRune, 'F')
	h.eventually("(no declared ports) to pod port:")
	h.typeText("8080\n")
	h.eventually("from local port:")
	h.replacePrompt("0")
	h.press(tcell.KeyEnter, 0)
	h.eventually("forwarding 127.0.0.1:")
	fs := waitForwards(h, 1)
	h.cluster.mu.Lock()
	h.cluster.streams.forwardPanic = "bad stream"
	h.cluster.mu.Unlock()
	fs[0].end <- errors.New("lost connection to pod")
	var perr *PanicError
	if err := h.stopped("a panic in a port-forward"); !errors.As(err, &perr) || perr.Error() != "internal error: bad stream" {
		t.Errorf("Run returned %v, want the panic", err)
	}
}
