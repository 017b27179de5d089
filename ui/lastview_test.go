package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestLastView: LastView names the context, the resource of the table on top as a command names it (a kind
// of a group with its group, several kinds as typed) and the namespace ("" for all), as the session goes.
func TestLastView(t *testing.T) {
	h := start(t, 120, 30, nil)
	want := func(resource, namespace string) {
		t.Helper()
		var ctx, res, ns string
		h.quietly(func() { ctx, res, ns = h.app.LastView() })
		if ctx != "admin" || res != resource || ns != namespace {
			t.Errorf("LastView %q %q %q, want admin %q %q", ctx, res, ns, resource, namespace)
		}
	}
	want("", "shop") // nothing opened yet
	h.command("deploy")
	h.eventually("deployments(shop)")
	want("deployments.apps", "shop")
	h.command("ns data")
	h.eventually("deployments(data)")
	want("deployments.apps", "data")
	h.command("deploy,secrets")
	h.eventually("deployments,secrets(data)")
	want("deployments.apps,secrets", "data")
	h.command("pods")
	h.eventually("pods(data)")
	h.press(tcell.KeyRune, '0')
	h.eventually("pods(all)")
	want("pods", "")
}
