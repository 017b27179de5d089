package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/watch"
)

// TestObjectViewsOpenTheRegisteredScreens: y and enter on a table row open the YAML view registered in
// Options.Registered (Roles.YAML), d the describe view, each with the row and an ObjectView whose openers
// are the registered screens' (describe's y: the YAML view; the YAML view's h and b: history and blame); esc
// goes back. Without them registered, y and d are not bound and the openers are nil.
func TestObjectViewsOpenTheRegisteredScreens(t *testing.T) {
	var opened []string
	var views []ObjectView
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Registered[0].Plays.YAML = func(nav Navigator, res discovery.Resource, row *watch.Row, obj ObjectView) Screen {
			opened, views = append(opened, "yaml "+res.Name+" "+row.Key), append(views, obj)
			return stubYAML(nav, res, row, obj)
		}
		o.Registered[0].Plays.Describe = func(nav Navigator, res discovery.Resource, row *watch.Row, obj ObjectView) Screen {
			opened, views = append(opened, "describe "+res.Name+" "+row.Key), append(views, obj)
			return stubDescribe(nav, res, row, obj)
		}
	})
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyRune, 'y')
	h.eventually("yaml stub: pods shop/web-7d9f-abcde: Pod at")
	h.press(tcell.KeyRune, 'h')
	h.eventually("history stub of shop/web-7d9f-abcde")
	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyRune, 'b')
	h.eventually("blame stub of shop/web-7d9f-abcde")
	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyEscape, 0)
	h.contains("pods(shop)[3]")
	h.press(tcell.KeyRune, 'd')
	h.eventually("describe stub: pods shop/web-7d9f-abcde")
	h.press(tcell.KeyRune, 'y')
	h.eventually("yaml stub: pods shop/web-7d9f-abcde")
	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("yaml stub: pods shop/web-7d9f-abcde")
	want := []string{"yaml pods shop/web-7d9f-abcde", "describe pods shop/web-7d9f-abcde", "yaml pods shop/web-7d9f-abcde",
		"yaml pods shop/web-7d9f-abcde"}
	if !slices.Equal(opened, want) {
		t.Errorf("opened %q, want %q", opened, want)
	}
	for _, v := range views {
		if v.Keys == nil || v.Record == nil || v.History == nil || v.Blame == nil || v.YAML == nil {
			t.Errorf("an ObjectView lacks a func: %+v", v)
		}
	}

	bare := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Registered[0].Plays.YAML, o.Registered[0].Plays.Describe, o.Registered[0].Plays.History = nil, nil, nil
	})
	var keys []string
	bare.quietly(func() {
		for _, b := range bare.app.top().Bindings() {
			keys = append(keys, b.Name)
		}
		v := bare.app.objectView(discovery.Resource{Version: "v1", Name: "pods", Namespaced: true}, &watch.Row{Key: "shop/x", Namespace: "shop", Name: "x"})
		if v.YAML != nil || v.History != nil || v.Blame == nil {
			t.Error("the ObjectView offers an opener of a screen not registered (or lacks blame's)")
		}
	})
	if slices.Contains(keys, keymap.Keys.Table.YAML.Name) || slices.Contains(keys, keymap.Keys.Object.Describe.Name) {
		t.Errorf("y or d bound with no YAML or describe view registered: %q", keys)
	}
	bare.press(tcell.KeyEnter, 0)
	bare.contains("pods(shop)[3]")
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
	h.ui(func() { key = h.app.top().(*livetable.Table).SelectedKey() })
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

// TestFirstRegisteredPlaysTheRole: when two registered screens play the YAML view, y opens the first's; a
// role only the later one plays (describe) is the later one's.
func TestFirstRegisteredPlaysTheRole(t *testing.T) {
	var opened []string
	yamlOf := func(who string) ObjectScreen {
		return func(nav Navigator, res discovery.Resource, row *watch.Row, obj ObjectView) Screen {
			opened = append(opened, who+" yaml")
			return stubYAML(nav, res, row, obj)
		}
	}
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Registered = []ScreenSpec{
			{Keys: keymap.Family{Screen: "ui/first"}, Plays: Roles{YAML: yamlOf("first")}},
			{Keys: keymap.Family{Screen: "ui/second"}, Plays: Roles{YAML: yamlOf("second"),
				Describe: func(nav Navigator, res discovery.Resource, row *watch.Row, obj ObjectView) Screen {
					opened = append(opened, "second describe")
					return stubDescribe(nav, res, row, obj)
				}}},
		}
	})
	h.press(tcell.KeyRune, 'y')
	h.eventually("yaml stub")
	h.press(tcell.KeyEscape, 0)
	h.eventually("pods(shop)[3]")
	h.press(tcell.KeyRune, 'd')
	h.eventually("describe stub")
	h.ui(func() {
		if want := []string{"first yaml", "second describe"}; !slices.Equal(opened, want) {
			t.Errorf("opened %q, want %q", opened, want)
		}
	})
}
