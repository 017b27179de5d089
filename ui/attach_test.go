package ui

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// attachCall is the fake's record of an attachment to container of shop/pod.
func attachCall(pod, container string, stdin, tty bool) string {
	return "attach shop/" + pod + " " + container + " stdin=" + map[bool]string{false: "false", true: "true"}[stdin] +
		" tty=" + map[bool]string{false: "false", true: "true"}[tty]
}

// withInteractive gives the fixture pod's container web stdin and a terminal (kubectl run -it's).
func withInteractive(o *Options) {
	pod := o.Cluster.(*fakeCluster).objects["pods/shop/web-7d9f-abcde"]
	pod.Object["spec"] = map[string]any{"containers": []any{
		map[string]any{"name": "web", "image": "busybox", "stdin": true, "tty": true}}}
}

// TestAttachKeyOnPods: `a` on a pod (and only on pods) attaches; with two containers it asks which, the
// default container preselected; the container's output reaches the terminal after the line saying how to
// detach, and the end is said on the prompt line with the screen back.
func TestAttachKeyOnPods(t *testing.T) {
	h, out := startShellTest(t, withContainers)
	if b, ok := bindingNamed(h, "attach"); !ok || b.Rune != 'a' {
		t.Errorf("pods: attach is %+v (found %v), want a", b, ok)
	}
	h.cluster.mu.Lock()
	h.cluster.streams.attachOutput = "kscope-attached-output\n"
	h.cluster.mu.Unlock()
	h.press(tcell.KeyRune, 'a')
	h.eventually("attach to which container of web-7d9f-abcde")
	h.contains("sidecar")
	h.press(tcell.KeyEnter, 0) // the preselected sidecar
	h.eventually("attach to shop/web-7d9f-abcde (sidecar) ended")
	h.contains("pods(shop)[1] </abcde>")
	if got, want := writes(h), []string{attachCall("web-7d9f-abcde", "sidecar", false, false)}; !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
	want := "kscope: attached to the output of shop/web-7d9f-abcde (sidecar) (it reads no input); detach with ctrl-p ctrl-q or ctrl-c.\r\n" +
		"kscope-attached-output\n"
	if out.String() != want {
		t.Errorf("the terminal got %q, want %q", out.String(), want)
	}
	h.typeText(":deploy\n")
	h.eventually("deployments(shop)")
	if _, ok := bindingNamed(h, "attach"); ok {
		t.Error("deployments offer attach")
	}
}

// TestAttachKeyOnContainers: `a` on the containers screen attaches to the selected container, without
// asking which.
func TestAttachKeyOnContainers(t *testing.T) {
	var logged []string
	var mu sync.Mutex
	h, _ := startShellTest(t, withPodContainers(&logged, &mu))
	h.press(tcell.KeyEnter, 0)
	h.eventually("containers stub of web-7d9f-abcde")
	h.press(tcell.KeyRune, 'a')
	h.eventually("attach to shop/web-7d9f-abcde (sidecar) ended")
	if got, want := writes(h), []string{attachCall("web-7d9f-abcde", "sidecar", false, false)}; !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}

// TestAttachDetaches: to a container with stdin and a terminal, attach sends the keys typed but ctrl-p
// ctrl-q, which detach (the attachment lasting until then); to one reading no input, ctrl-c detaches too.
func TestAttachDetaches(t *testing.T) {
	h, _ := startShellTest(t, withInteractive)
	h.cluster.mu.Lock()
	h.cluster.streams.attachHolds = true
	h.cluster.mu.Unlock()
	h.ui(func() { h.app.shellIn = strings.NewReader("ls\r\x10x\x10\x11never sent") })
	h.press(tcell.KeyRune, 'a')
	h.eventually("detached from shop/web-7d9f-abcde (web); its process runs on")
	h.cluster.mu.Lock()
	input := h.cluster.streams.attachInput
	h.cluster.mu.Unlock()
	if input != "ls\r\x10x" {
		t.Errorf("the container read %q, want the keys before ctrl-p ctrl-q (a ctrl-p alone passed on)", input)
	}

	plain, _ := startShellTest(t, nil)
	plain.cluster.mu.Lock()
	plain.cluster.streams.attachHolds = true
	plain.cluster.mu.Unlock()
	plain.ui(func() { plain.app.shellIn = strings.NewReader("x\x03") })
	plain.press(tcell.KeyRune, 'a')
	plain.eventually("detached from shop/web-7d9f-abcde (web); its process runs on")
	for _, tt := range []struct {
		h    *harness
		want string
	}{{h, attachCall("web-7d9f-abcde", "web", true, true)}, {plain, attachCall("web-7d9f-abcde", "web", false, false)}} {
		if got := writes(tt.h); !slices.Equal(got, []string{tt.want}) {
			t.Errorf("calls %q, want %q", got, tt.want)
		}
	}
}

// TestAttachRefused: a pod not running, or a container of it that has ended, is refused before any
// attachment; read-only mode refuses without asking; an attach the server does not permit is marked so and
// sends nothing; a failed attachment is one line.
func TestAttachRefused(t *testing.T) {
	h, _ := startShellTest(t, func(o *Options) {
		c := o.Cluster.(*fakeCluster)
		pending := podObject()
		pending.SetName("api-5c4b-zzzzz")
		pending.Object["status"] = map[string]any{"phase": "Pending"}
		c.objects["pods/shop/api-5c4b-zzzzz"] = pending
		c.objects["pods/shop/web-7d9f-abcde"].Object["status"] = map[string]any{"phase": "Running",
			"containerStatuses": []any{map[string]any{"name": "web", "state": map[string]any{"terminated": map[string]any{"reason": "Completed"}}}}}
	})
	h.press(tcell.KeyRune, 'a')
	h.eventually("attach shop/web-7d9f-abcde: container web has ended (Completed), it is not running")
	h.typeText("/api\n")
	h.eventually("</api>")
	h.press(tcell.KeyRune, 'a')
	h.eventually("attach shop/api-5c4b-zzzzz: the pod is Pending, not running")

	ro, _ := startShellTest(t, func(o *Options) { o.ReadOnly = true })
	ro.press(tcell.KeyRune, 'a')
	ro.eventually("read-only mode: refusing to attach pods shop/web-7d9f-abcde")

	denied, _ := startShellTest(t, func(o *Options) { o.Cluster.(*fakeCluster).denied["create pods/attach shop"] = true })
	denied.eventually("not permitted: attach")
	denied.press(tcell.KeyRune, 'a')
	denied.eventually("not permitted: you may not attach pods shop/web-7d9f-abcde (RBAC")
	for _, h := range []*harness{h, ro, denied} {
		if h.app.modal != nil || len(writes(h)) != 0 {
			t.Errorf("modal %v, writes %q", h.app.modal != nil, writes(h))
		}
	}

	failing, _ := startShellTest(t, nil)
	failing.cluster.mu.Lock()
	failing.cluster.streams.attachErr = errors.New("no attaches found\nfor container")
	failing.cluster.mu.Unlock()
	failing.press(tcell.KeyRune, 'a')
	failing.eventually("attach to shop/web-7d9f-abcde (web): no attaches found for container")
}
