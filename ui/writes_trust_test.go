package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/ui/livetable"
	"kscope/watch"
)

// scaleOf returns the fixture's replicas of deployments shop/web.
func scaleOf(c *fakeCluster) int32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.replicas["deployments/shop/web"]
}

// changeWeb is someone else's change of deployments shop/web: a new resourceVersion and replicas, told
// to the object's watchers.
func changeWeb(c *fakeCluster, rv string, replicas int32) {
	c.mu.Lock()
	c.replicas["deployments/shop/web"] = replicas
	c.mu.Unlock()
	obj := deploymentObject()
	obj.SetResourceVersion(rv)
	c.put(deploymentsGVR, obj)
}

// deleteWeb deletes deployments shop/web and tells its watchers.
func deleteWeb(c *fakeCluster) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := "deployments/shop/web"
	last := c.objects[key]
	delete(c.objects, key)
	if c.gone == nil {
		c.gone = map[string]bool{}
	}
	c.gone[key] = true
	for _, w := range c.watchers[key] {
		w <- watch.ObjectEvent{Object: last.DeepCopy(), Deleted: true}
	}
}

// reCreateWebUnseen replaces deployments shop/web by a new object of the same name (another UID) before
// any watch has told the views: the moment a key is pressed on a view that still shows the old one.
func reCreateWebUnseen(c *fakeCluster) *unstructured.Unstructured {
	obj := deploymentObject()
	obj.SetUID("uid-web-new")
	obj.SetResourceVersion("40")
	c.mu.Lock()
	defer c.mu.Unlock()
	c.objects["deployments/shop/web"] = obj.DeepCopy()
	return obj
}

// startWide starts on the deployments table, wide enough for the status line's whole refusal.
func startWide(t *testing.T, opts func(*Options)) *harness {
	return start(t, 140, 30, func(o *Options) {
		o.Resource = "deployments"
		if opts != nil {
			opts(o)
		}
	})
}

func noEditor(t *testing.T) func(*Options) {
	return func(o *Options) {
		o.Edit = func([]byte) ([]byte, string, error) {
			t.Error("the editor was opened")
			return nil, "", nil
		}
	}
}

// TestScaleConflictKeepsTheOtherChange: a change of the scale between the dialog's read and the confirm
// (an autoscaler, another user) is not overwritten: the status line says conflict, what changed and that
// nothing was written.
func TestScaleConflictKeepsTheOtherChange(t *testing.T) {
	h := startWide(t, nil)
	h.press(tcell.KeyRune, 's')
	h.eventually("scale deployments web (now 2) to:")
	changeWeb(h.cluster, "6", 7)
	h.typeText("5\n")
	h.contains("Scale deployments web from 2 to")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("not scaling deployments shop/web: conflict: replicas changed since the dialog (2 then, 7 now); nothing written")
	if n := scaleOf(h.cluster); n != 7 {
		t.Errorf("replicas %d, want the other change's 7 kept", n)
	}
	// A fresh dialog reads the new state and its scale lands.
	h.press(tcell.KeyRune, 's')
	h.eventually("(now 7) to:")
	h.typeText("5\n")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("scaled deployments shop/web to 5")
	if n := scaleOf(h.cluster); n != 5 {
		t.Errorf("replicas %d after the second scale, want 5", n)
	}
}

// openWebView opens the YAML ('y') or describe view of deployments shop/web and waits for it.
func openWebView(h *harness, key rune) {
	h.t.Helper()
	if key == 'y' {
		h.press(tcell.KeyRune, 'y')
		h.eventually("kind: Deployment")
		return
	}
	h.press(tcell.KeyRune, key)
	h.eventually("ResourceVersion: 5")
}

// TestViewsOfADeletedObjectRefuseWrites: once the YAML or describe view shows its object deleted, edit,
// scale and restart are refused in one line and nothing is read or written by name.
func TestViewsOfADeletedObjectRefuseWrites(t *testing.T) {
	for _, view := range []rune{'y', 'd'} {
		h := startWide(t, noEditor(t))
		openWebView(h, view)
		deleteWeb(h.cluster)
		h.eventually("deleted")
		for _, key := range []rune{'e', 's', 'r'} {
			h.press(tcell.KeyRune, key)
			h.eventually("deployments shop/web was deleted: nothing to act on")
			if h.app.modal != nil || h.app.bar.Active() {
				t.Fatalf("%c in view %c: modal %v, prompt %v", key, view, h.app.modal != nil, h.app.bar.Active())
			}
			h.ui(func() { h.app.Message("") })
		}
		if w := writes(h); len(w) != 0 {
			t.Errorf("view %c: writes %q", view, w)
		}
	}
}

// TestViewsActOnTheUIDShown: when the object a YAML or describe view shows was deleted and re-created
// under the same name before the view heard of it, edit and scale (which read by name first) are refused
// in one line, restart and delete carry the UID shown and are refused by the server; the new object is
// untouched.
func TestViewsActOnTheUIDShown(t *testing.T) {
	const refused = ": conflict: it was re-created since shown (new UID); nothing written"
	for _, view := range []rune{'y', 'd'} {
		h := startWide(t, noEditor(t))
		openWebView(h, view)
		reCreateWebUnseen(h.cluster)
		h.press(tcell.KeyRune, 'e')
		h.eventually("not editing deployments shop/web" + refused)
		h.press(tcell.KeyRune, 's')
		h.eventually("not scaling deployments shop/web" + refused)
		if h.app.bar.Active() {
			t.Fatalf("view %c: the scale prompt opened", view)
		}
		h.press(tcell.KeyRune, 'r')
		h.contains("Restart deployments web?")
		h.press(tcell.KeyTab, 0)
		h.press(tcell.KeyEnter, 0)
		h.eventually("not restarting deployments shop/web" + refused)
		h.press(tcell.KeyCtrlD, 0)
		h.contains("Delete deployments web?")
		h.press(tcell.KeyTab, 0)
		h.press(tcell.KeyEnter, 0)
		h.eventually("not deleting deployments shop/web" + refused)
		if n := scaleOf(h.cluster); n != 2 {
			t.Errorf("view %c: replicas %d, want 2", view, n)
		}
		for _, w := range writes(h) {
			if strings.HasPrefix(w, "scale ") || strings.HasPrefix(w, "update ") {
				t.Errorf("view %c: sent %q", view, w)
			}
		}
	}
}

// selectedRow returns the key of the table's selected row and whether it is a deleted one.
func selectedRow(h *harness) (key string, ghost bool) {
	h.ui(func() {
		t := h.app.top().(*livetable.Table)
		row, g := t.Selected()
		if row != nil {
			key, ghost = row.Key, g
		}
	})
	return key, ghost
}

// TestLingeringRowsObeyTheFilter: a row deleted moments ago stays dimmed only while it matches the filter
// of the moment; a filter set after the deletion hides it as it hides live rows.
func TestLingeringRowsObeyTheFilter(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	src := h.cluster.lastSource()
	src.Delete("shop/web-7d9f-fghij")
	h.refresh()
	h.contains("web-7d9f-fghij") // dimmed, for a moment
	h.typeText("/api\n")
	h.refresh()
	h.contains("api-5c4b-zzzzz")
	h.lacks("web-7d9f-fghij")
	if key, ghost := selectedRow(h); key != "shop/api-5c4b-zzzzz" || ghost {
		t.Errorf("selected %q (deleted %v), want the live api pod", key, ghost)
	}
}

// TestDeletedRowIsNeverSelected: when the selected object is deleted, or a filter leaves the cursor where a
// deleted row lingers, the cursor moves to a live row, so that a key acts on a live object.
func TestDeletedRowIsNeverSelected(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	src := h.cluster.lastSource()
	if key, _ := selectedRow(h); key != "shop/api-5c4b-zzzzz" {
		t.Fatalf("selected %q at the start", key)
	}
	src.Delete("shop/api-5c4b-zzzzz")
	h.refresh()
	h.contains("api-5c4b-zzzzz") // dimmed, for a moment
	if key, ghost := selectedRow(h); key != "shop/web-7d9f-abcde" || ghost {
		t.Errorf("after its deletion the cursor is on %q (deleted %v), want the next live row", key, ghost)
	}
	h.typeText("/web\n")
	h.refresh()
	src.Delete("shop/web-7d9f-abcde")
	h.refresh()
	if key, ghost := selectedRow(h); key != "shop/web-7d9f-fghij" || ghost {
		t.Errorf("in the filtered table the cursor is on %q (deleted %v), want web-7d9f-fghij", key, ghost)
	}
	h.press(tcell.KeyCtrlD, 0)
	h.contains("Delete pods web-7d9f-fghij?")
}
