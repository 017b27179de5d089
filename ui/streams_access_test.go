package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestReadOnlyRefusesShellAndPortForward: in read-only mode s and shift-f on a pod say so on the prompt line
// and reach the cluster not at all: no pod read, no access question, no exec, no forward.
func TestReadOnlyRefusesShellAndPortForward(t *testing.T) {
	for _, res := range []string{"pods", "deployments"} {
		h := start(t, 100, 30, func(o *Options) { o.Resource, o.ReadOnly = res, true })
		h.eventually(res + "(shop)")
		var key string
		if res == "pods" {
			h.typeText("/abcde\n")
			h.eventually("</abcde>")
			h.press(tcell.KeyRune, 's')
			h.eventually("read-only mode: refusing to shell pods shop/web-7d9f-abcde")
			key = "pods shop/web-7d9f-abcde"
		} else {
			key = "deployments shop/web"
		}
		h.press(tcell.KeyRune, 'F')
		h.eventually("read-only mode: refusing to port-forward " + key)
		for _, c := range h.cluster.recorded() {
			if strings.Contains(c, "exec") || strings.Contains(c, "port-forward") || strings.Contains(c, "portforward") {
				t.Errorf("%s: read-only mode sent %q", res, c)
			}
		}
		if h.app.modal != nil || h.app.bar.Active() {
			t.Errorf("%s: a dialog or prompt opened in read-only mode", res)
		}
	}
}

// TestDeniedShellAndPortForward: the server's answers to create on pods/exec and pods/portforward (asked
// about pods also from a deployment) are shown in the status line and help, and pressing the key sends
// nothing but says why.
func TestDeniedShellAndPortForward(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Cluster.(*fakeCluster).denied = map[string]bool{"create pods/exec shop": true, "create pods/portforward shop": true}
	})
	h.eventually("not permitted: shell, port-forward")
	h.typeText("/abcde\n")
	h.eventually("</abcde>")
	h.press(tcell.KeyRune, 's')
	h.eventually("not permitted: you may not shell pods shop/web-7d9f-abcde (RBAC: no rule allows it)")
	h.press(tcell.KeyRune, 'F')
	h.eventually("not permitted: you may not port-forward pods shop/web-7d9f-abcde")
	h.press(tcell.KeyRune, '?')
	h.contains("not permitted: a shell in the pod")
	h.contains("not permitted: forward a local port")
	h.lacks("not permitted: edit")
	h.press(tcell.KeyEscape, 0)

	h.typeText(":deploy\n")
	h.eventually("deployments(shop)[1]")
	h.eventually("not permitted: port-forward")
	h.press(tcell.KeyRune, 'F')
	h.eventually("not permitted: you may not port-forward deployments shop/web")
	for _, c := range writes(h) {
		t.Errorf("sent %q", c)
	}
	var asked []string
	for _, c := range h.cluster.recorded() {
		if strings.HasPrefix(c, "can create pods/") {
			asked = append(asked, c)
		}
	}
	if len(asked) < 2 {
		t.Errorf("asked %q, want create pods/exec and pods/portforward", asked)
	}
	for _, c := range h.cluster.recorded() {
		if strings.HasPrefix(c, "can create deployments") {
			t.Errorf("asked about deployments for a port-forward: %q", c)
		}
	}
}
