package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

func TestYAMLView(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyRune, 'y')
	waitFor(t, h, "apiVersion: v1")
	h.golden("yaml_100x30")
	h.lacks("manager: kube-controller-manager")
	h.press(tcell.KeyRune, 'm')
	h.contains("manager: kube-controller-manager")
	h.typeText("/nginx\n")
	h.contains("</nginx> 1/1")
	h.press(tcell.KeyEscape, 0) // clears the search
	h.lacks("</nginx>")
	h.press(tcell.KeyEscape, 0) // back
	h.contains("pods(shop)[3]")
}

func TestSecretMasked(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "secrets" })
	h.press(tcell.KeyEnter, 0)
	waitFor(t, h, "password: '********'")
	h.lacks("aHVudGVyMg==")
	h.press(tcell.KeyRune, 'x')
	h.contains("aHVudGVyMg==")
}

func TestEvents(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyRune, 'E')
	spec := h.cluster.lastSource().Spec()
	if spec.GVR.Resource != "events" || spec.Namespace != "shop" || spec.FieldSelector != "involvedObject.uid=uid-web-7d9f-abcde" {
		t.Errorf("events spec = %+v", spec)
	}
	h.contains("events(web-7d9f-abcde)[0]")
	h.contains("<pods> <events(web-7d9f-abcde)>")
}

func TestOwnerJump(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyRune, 'J')
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(h.text(), "replicasets(shop)") {
		if time.Now().After(deadline) {
			t.Fatalf("owner table not shown:\n%s", h.text())
		}
		time.Sleep(10 * time.Millisecond)
	}
	var key string
	h.ui(func() { key = h.app.top().(*LiveTable).selectedKey() })
	if key != "shop/web-7d9f" {
		t.Errorf("owner selected = %q", key)
	}
}

func TestDeleteConfirm(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.press(tcell.KeyCtrlD, 0)
	h.waitDialog("Delete pods api-5c4b-zzzzz?") // opens once the server has said the user may delete
	h.golden("delete_confirm_100x30")
	h.press(tcell.KeyEnter, 0) // Cancel has the focus
	// A delete starts on the UI goroutine (its "deleting" message) before the request goes out.
	if d := h.cluster.deleted(); len(d) != 0 || h.app.modal != nil {
		t.Fatalf("cancel deleted %v (dialog still open: %v)", d, h.app.modal != nil)
	}
	h.lacks("deleting pods")
	h.press(tcell.KeyCtrlD, 0)
	h.waitDialog("Delete pods api-5c4b-zzzzz?")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.until("the delete request", func() bool { return len(h.cluster.deleted()) > 0 })
	if d := h.cluster.deleted(); !slices.Equal(d, []string{"pods/shop/api-5c4b-zzzzz"}) {
		t.Errorf("deleted %v", d)
	}
	h.contains("deleted pods shop/api-5c4b-zzzzz")
}

func TestReadOnlyRefusesDelete(t *testing.T) {
	h := start(t, 80, 24, func(o *Options) { o.Resource = "pods"; o.ReadOnly = true })
	h.press(tcell.KeyCtrlD, 0)
	h.contains("read-only mode: refusing to delete pods shop/api-5c4b-zzzzz")
	h.contains("READ-ONLY")
	if h.app.modal != nil || len(h.cluster.deleted()) != 0 {
		t.Error("read-only mode asked or deleted")
	}
}

func TestYAMLSearchNextMatch(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyRune, 'y')
	waitFor(t, h, "apiVersion: v1")
	h.typeText("/web\n")
	h.contains("</web> 1/6") // label, name, owner name and uid, uid, container name
	h.press(tcell.KeyRune, 'n')
	h.contains("</web> 2/6")
	h.typeText("/no-such-text\n")
	h.contains(`"no-such-text" not found`)
}
