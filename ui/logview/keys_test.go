package logview

import (
	"reflect"
	"slices"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/plugins"
	"kscope/ui/theme"
)

// TestBindingsAreTheLogsKeys: the view binds every key of keymap.Keys.Logs, in the table's order, between help
// and quit (ui's stub logs screen offers the same, so that ui's key tests cover them).
func TestBindingsAreTheLogsKeys(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	v := lt.openPod("web-7d9f-abcde", false)
	want := []string{keymap.Keys.Views.Help.Name}
	family := reflect.ValueOf(keymap.Keys.Logs)
	for i := range family.NumField() {
		want = append(want, family.Field(i).Interface().(keymap.KeyDef).Name)
	}
	want = append(want, keymap.Keys.Views.Quit.Name)
	var got []string
	for _, b := range v.Bindings() {
		got = append(got, b.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("bindings %q, want %q", got, want)
	}
}

// TestPluginHostOfOnePod: the logs of one pod run the containers' plugins with the pod's variables; a
// workload's run none, and say why.
func TestPluginHostOfOnePod(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	v := lt.openPod("web-7d9f-abcde", false)
	var pod plugins.Subject = v
	if got := pod.PluginScopes(); !slices.Equal(got, []string{"containers", "container", "co"}) {
		t.Errorf("scopes %q", got)
	}
	what, env, ok := pod.PluginSubject()
	want := map[string]string{"NAMESPACE": "shop", "POD": "web-7d9f-abcde", "CONTAINER": "web", "NAME": "web",
		"RESOURCE_NAME": "containers", "RESOURCE_GROUP": "", "RESOURCE_VERSION": "v1", "FILTER": ""}
	if !ok || what != "container web of pod web-7d9f-abcde" || !reflect.DeepEqual(env, want) {
		t.Errorf("subject %q %v %v", what, env, ok)
	}

	lt.open(deploymentsRes, "web", false)
	var workload plugins.Subject = lt.top()
	if got := workload.PluginScopes(); got != nil {
		t.Errorf("a workload's scopes %q, want none", got)
	}
	if _, _, ok := workload.PluginSubject(); ok {
		t.Error("a workload's logs have a plugin subject")
	}
	lt.untilError("plugins act on the logs of one pod")
}

// TestSkinBackground: the skin's logs background paints the view (ui.SkinnedScreen), when it has one.
func TestSkinBackground(t *testing.T) {
	th := theme.Default()
	var v ui.SkinnedScreen = &View{}
	if _, ok := v.SkinBackground(th); ok {
		t.Error("kscope's own look sets a logs background")
	}
	th.LogBg, th.HasLogBg = tcell.NewHexColor(0x303030), true
	if bg, ok := v.SkinBackground(th); !ok || bg != tcell.NewHexColor(0x303030) {
		t.Errorf("background %v %v, want the skin's", bg, ok)
	}
}

// TestEveryKeySendsNoWrite: every key of the view, its search answered, only reads (ui's read-only test
// runs a stub with the same keys): the fake cluster has no write, and one called would panic.
func TestEveryKeySendsNoWrite(t *testing.T) {
	lt := newLogsTest(t, ui.LogSettings{})
	lt.seedLog("web-7d9f-abcde", "web", 3)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "web line-3")
	for _, b := range v.Bindings() {
		asked := len(lt.nav.Questions())
		if !lt.nav.Press(v, tcell.NewEventKey(b.Key, b.Rune, tcell.ModNone)) {
			t.Errorf("%s (%s) did not run", b.Name, b.Label)
		}
		if len(lt.nav.Questions()) > asked {
			lt.nav.Answer("line")
		}
	}
	lt.eventually(v, "web line-3")
}
