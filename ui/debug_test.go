package ui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/ui/verbs"
)

// shellCall is the fake's record of the shell verb's exec into container of shop/pod.
func shellCall(pod, container string) string {
	return "exec shop/" + pod + " " + container + " " + strings.Join(verbs.ShellCommand(), " ") + " tty=true"
}

// TestDebugPodAsksFirstThenAttaches: shift-b on a pod asks the image (busybox first), the target container
// (of two; the default one first) and the profile (general first), then confirms with Cancel focused;
// Debug adds the ephemeral container with the pod's UID, waits for it to run, then attaches to it (stdin
// and a terminal, as kubectl debug -it).
func TestDebugPodAsksFirstThenAttaches(t *testing.T) {
	h, _ := startShellTest(t, withContainers)
	ask := func() {
		h.press(tcell.KeyRune, 'B')
		h.eventually("image of the debug container for pod shop/web-7d9f-abcde: busybox")
		h.press(tcell.KeyEnter, 0)
		h.eventually("target container")
		h.contains("sidecar")
		h.press(tcell.KeyEnter, 0) // the default container, sidecar
		h.eventually("debug profile")
		h.contains("restricted")
		h.press(tcell.KeyEnter, 0) // general
		h.waitDialog("Debug pod web-7d9f-abcde?")
		h.contains("target")
		h.contains("sidecar)")
	}
	ask()
	h.press(tcell.KeyEnter, 0) // Cancel is focused
	if h.app.modal != nil || len(writes(h)) != 0 {
		t.Fatalf("Enter on the dialog: modal %v, writes %q", h.app.modal != nil, writes(h))
	}
	ask()
	h.burst("\t\n")
	h.eventually("attach to shop/web-7d9f-abcde (debugger-abcde) ended")
	want := []string{"debug pods/shop/web-7d9f-abcde {Image:busybox Target:sidecar Profile:general}",
		"wait shop/web-7d9f-abcde debugger-abcde", attachCall("web-7d9f-abcde", "debugger-abcde", true, true)}
	if w := writes(h); !slices.Equal(w, want) {
		t.Errorf("calls %q, want %q", w, want)
	}
}

// TestDebugNodeCreatesPodThenAttaches: shift-b on a node asks the image and the profile, confirms, then
// creates the node's debug pod in the namespace of the moment and attaches to its container.
func TestDebugNodeCreatesPodThenAttaches(t *testing.T) {
	h := startOnNodes(t, nil)
	h.ui(func() { h.app.shellIn, h.app.shellOut = strings.NewReader(""), &syncBuffer{} })
	h.eventually("kwok-node-0")
	h.press(tcell.KeyRune, 'B')
	h.eventually("image of the debug container for node kwok-node-0: busybox")
	h.typeText("\n")
	h.eventually("debug profile")
	h.press(tcell.KeyDown, 0) // baseline
	h.press(tcell.KeyEnter, 0)
	h.waitDialog("Debug node kwok-node-0?")
	h.contains("namespace")
	h.contains("shop,")
	h.burst("\t\n")
	h.eventually("attach to shop/node-debugger-kwok-node-0-abcde (debugger) ended")
	want := []string{"debug-node nodes//kwok-node-0 shop {Image:busybox Target: Profile:baseline}",
		"wait shop/node-debugger-kwok-node-0-abcde debugger", "attach shop/node-debugger-kwok-node-0-abcde debugger stdin=true tty=true"}
	if w := writes(h); !slices.Equal(w, want) {
		t.Errorf("calls %q, want %q", w, want)
	}
}

// TestDebugAttachRefusedShells: when the attachment to the debug container fails before anything came or
// went (a server or kubelet without attach), the terminal says so and a shell runs in the container
// instead (exec); the prompt line says both. An attachment that showed output and then failed is not
// refused: no shell follows it.
func TestDebugAttachRefusedShells(t *testing.T) {
	h, out := startShellTest(t, nil)
	h.cluster.mu.Lock()
	h.cluster.streams.attachErr = errors.New("no attaches found")
	h.cluster.mu.Unlock()
	debug := func() {
		h.press(tcell.KeyRune, 'B')
		h.eventually("image of the debug container")
		h.press(tcell.KeyEnter, 0)
		h.eventually("debug profile")
		h.press(tcell.KeyEnter, 0)
		h.waitDialog("Debug pod web-7d9f-abcde?")
		h.burst("\t\n")
	}
	debug()
	h.eventually("attach refused (no attaches found): shell in shop/web-7d9f-abcde (debugger-abcde) ended")
	if w := writes(h); len(w) != 4 || w[2] != attachCall("web-7d9f-abcde", "debugger-abcde", true, true) ||
		w[3] != shellCall("web-7d9f-abcde", "debugger-abcde") {
		t.Errorf("calls %q, want debug, wait, attach, then the shell", w)
	}
	if !strings.Contains(out.String(), "kscope: attach refused (no attaches found); a shell in the container instead (exec)\r\n") {
		t.Errorf("the terminal got %q", out.String())
	}

	h.cluster.mu.Lock()
	h.cluster.streams.attachOutput = "/ # "
	h.cluster.mu.Unlock()
	debug()
	h.eventually("attach to shop/web-7d9f-abcde (debugger-abcde): no attaches found")
	if w := writes(h); len(w) != 7 || !strings.HasPrefix(w[6], "attach ") {
		t.Errorf("calls %q, want no shell after an attachment that showed output", w)
	}
}

// TestDebugRefused: a pod not running is not debugged; read-only mode refuses without asking; a debug the
// server does not permit is marked so and asks nothing.
func TestDebugRefused(t *testing.T) {
	h, _ := startShellTest(t, func(o *Options) {
		pending := podObject()
		pending.SetName("api-5c4b-zzzzz")
		pending.SetUID("uid-api-5c4b-zzzzz")
		pending.Object["status"] = map[string]any{"phase": "Pending"}
		o.Cluster.(*fakeCluster).objects["pods/shop/api-5c4b-zzzzz"] = pending
	})
	h.typeText("/api\n")
	h.eventually("</api>")
	h.press(tcell.KeyRune, 'B')
	h.eventually("debug pod shop/api-5c4b-zzzzz: the pod is Pending, not running")

	ro, _ := startShellTest(t, func(o *Options) { o.ReadOnly = true })
	ro.press(tcell.KeyRune, 'B')
	ro.eventually("read-only mode: refusing to debug pods shop/web-7d9f-abcde")

	denied, _ := startShellTest(t, func(o *Options) {
		o.Cluster.(*fakeCluster).denied["patch pods/ephemeralcontainers shop"] = true
	})
	denied.eventually("not permitted: debug")
	denied.press(tcell.KeyRune, 'B')
	denied.eventually("not permitted: you may not debug pods shop/web-7d9f-abcde (RBAC")
	for _, h := range []*harness{h, ro, denied} {
		if h.app.modal != nil || h.app.bar.Active() || len(writes(h)) != 0 {
			t.Errorf("modal %v, prompt %v, writes %q", h.app.modal != nil, h.app.bar.Active(), writes(h))
		}
	}
}
