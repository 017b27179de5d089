package objectview

import (
	"reflect"
	"slices"
	"testing"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/types"

	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/watch"
)

// family is the names of a key family of keymap.Keys, in the table's order.
func family(f any) []string {
	var names []string
	v := reflect.ValueOf(f)
	for i := range v.NumField() {
		names = append(names, v.Field(i).Interface().(keymap.KeyDef).Name)
	}
	return names
}

func names(bs []keymap.Binding) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Name)
	}
	return out
}

// TestBindingsAreTheViewsKeys: the YAML view binds every key of keymap.Keys.YAML and the describe view every
// key of keymap.Keys.Describe, in the table's order, then the health panel's and the object keys ui hands them
// (the describe view's without describe), between help and quit; the openers ui leaves nil are not bound.
func TestBindingsAreTheViewsKeys(t *testing.T) {
	vt := newViewTest(t, 120, 30)
	object := []string{keymap.Keys.Object.Describe.Name, keymap.Keys.Object.Edit.Name}
	cases := []struct {
		open func(ui.Navigator, discovery.Resource, *watch.Row, ui.ObjectView) ui.Screen
		want []string
	}{
		{NewYAMLView, slices.Concat([]string{"help"}, family(keymap.Keys.YAML), []string{keymap.Keys.Health.Panel.Name}, object, []string{"quit"})},
		{NewDescribeView, slices.Concat([]string{"help"}, family(keymap.Keys.Describe), []string{keymap.Keys.Health.Panel.Name}, object[1:], []string{"quit"})},
	}
	for _, c := range cases {
		v := vt.open(c.open, deploymentsRes, "web")
		var got []string
		vt.nav.UI(func() { got = names(v.Bindings()) })
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: bindings %q, want %q", v.Crumb(), got, c.want)
		}
	}
	// Without the screens they open, h, b (YAML) and y (describe) are not bound.
	bare := func(shown func() (types.UID, bool)) []keymap.Binding { return nil }
	row := &watch.Row{Key: "shop/web", Namespace: "shop", Name: "web"}
	vt.nav.UI(func() {
		y := NewYAMLView(vt.nav, deploymentsRes, row, ui.ObjectView{Keys: bare})
		if got, want := names(y.Bindings()), []string{"help", "search", "next match", "copy", "managedFields", "reveal", "health", "quit"}; !slices.Equal(got, want) {
			t.Errorf("YAML without history and blame: %q, want %q", got, want)
		}
		d := NewDescribeView(vt.nav, deploymentsRes, row, ui.ObjectView{Keys: bare})
		if got, want := names(d.Bindings()), []string{"help", "search", "next match", "copy", "health", "quit"}; !slices.Equal(got, want) {
			t.Errorf("describe without a YAML view: %q, want %q", got, want)
		}
	})
}

// TestObjectKeysActOnTheObjectShown: the object keys ui hands a view are told the UID of the object the
// view shows (one re-created under the same name: the new UID once the view has seen it) and, once the view
// has seen it deleted, that it was (ui then refuses them: TestViewsOfADeletedObjectRefuseWrites).
func TestObjectKeysActOnTheObjectShown(t *testing.T) {
	for _, open := range []func(ui.Navigator, discovery.Resource, *watch.Row, ui.ObjectView) ui.Screen{NewYAMLView, NewDescribeView} {
		vt := newViewTest(t, 120, 30)
		v := vt.open(open, deploymentsRes, "web")
		vt.eventually(v, "live")
		vt.eventually(v, "web")
		vt.until("the object seen", func() bool { uid, _ := subjectOf(v)(); return uid != "" })
		vt.press(v, tcell.KeyRune, 'e')
		again := deploymentObject()
		again.SetUID("uid-web-2")
		vt.cluster.put(deploymentsGVR, again)
		vt.until("the new UID seen", func() bool { uid, _ := subjectOf(v)(); return uid == "uid-web-2" })
		vt.press(v, tcell.KeyRune, 'e')
		vt.cluster.remove(deploymentsGVR, "shop", "web")
		vt.eventually(v, "deleted")
		vt.press(v, tcell.KeyRune, 'e')
		if got, want := vt.obj.presses(), []string{"edit uid-web", "edit uid-web-2", "edit deleted"}; !slices.Equal(got, want) {
			t.Errorf("%s: edit was told %q, want %q", v.Crumb(), got, want)
		}
	}
}

// subjectOf is the view's answer to the object keys' question (UI goroutine).
func subjectOf(v ui.Screen) func() (types.UID, bool) {
	switch v := v.(type) {
	case *YAMLView:
		return v.subject
	case *DescribeView:
		return v.subject
	}
	panic("not a view of one object")
}

// TestEveryKeySendsNoWrite: every key of the YAML and describe views, a search answered, only reads (ui's
// read-only test runs a stub with the same object keys, ui's own): the fake cluster has no write, and one
// called would panic.
func TestEveryKeySendsNoWrite(t *testing.T) {
	for _, open := range []func(ui.Navigator, discovery.Resource, *watch.Row, ui.ObjectView) ui.Screen{NewYAMLView, NewDescribeView} {
		vt := newViewTest(t, 120, 30)
		v := vt.open(open, secretsRes, "creds")
		vt.eventually(v, "creds")
		var keys []keymap.Binding
		vt.nav.UI(func() { keys = v.Bindings() })
		for _, b := range keys {
			asked := len(vt.nav.Questions())
			if !vt.nav.Press(v, tcell.NewEventKey(b.Key, b.Rune, tcell.ModNone)) {
				t.Errorf("%s (%s) did not run", b.Name, b.Label)
			}
			if len(vt.nav.Questions()) > asked {
				vt.nav.Answer("password")
			}
		}
		vt.eventually(v, "creds")
	}
}
