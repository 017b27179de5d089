package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/config"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/theme"
	"kscope/watch"
)

// TestLogsKeysOpenTheRegisteredScreen: `l` and `p` on a table's row (and in the views of one object) open
// the logs screen playing Roles.Logs with the row's resource and object, previous for `p`, and
// the Options of the logs; esc goes back; without one registered, neither key is bound.
func TestLogsKeysOpenTheRegisteredScreen(t *testing.T) {
	type call struct {
		res      string
		row      string
		previous bool
		settings LogSettings
	}
	var calls []call
	wrap, follow := false, false
	h := start(t, 120, 30, func(o *Options) {
		o.Resource = "pods"
		o.LogLines, o.LogTail, o.LogWrap, o.LogFollow = 100, 42, &wrap, &follow
		o.Registered[0].Plays.Logs = func(nav Navigator, res discovery.Resource, row *watch.Row, previous bool, s LogSettings) {
			calls = append(calls, call{res.Name, row.Name, previous, s})
			stubLogs(nav, res, row, previous, s)
		}
	})
	h.press(tcell.KeyRune, '/')
	h.typeText("web-7d9f-abcde\n")
	h.press(tcell.KeyRune, 'l')
	h.eventually("logs stub of pods web-7d9f-abcde")
	h.press(tcell.KeyEscape, 0)
	h.eventually("pods(shop)[1]")
	h.press(tcell.KeyRune, 'y')
	h.eventually("apiVersion: v1")
	h.press(tcell.KeyRune, 'p')
	h.eventually("logs stub of pods web-7d9f-abcde (previous)")
	want := LogSettings{Lines: 100, Tail: 42, Wrap: &wrap, Follow: &follow}
	if len(calls) != 2 || calls[0] != (call{"pods", "web-7d9f-abcde", false, want}) ||
		calls[1] != (call{"pods", "web-7d9f-abcde", true, want}) {
		t.Errorf("opened %+v, want logs then previous logs of pods web-7d9f-abcde with the options' settings", calls)
	}

	bare := start(t, 120, 30, func(o *Options) { o.Resource = "pods"; o.Registered[0].Plays.Logs = nil })
	bare.press(tcell.KeyRune, 'l')
	bare.press(tcell.KeyRune, 'p')
	bare.contains("pods(shop)[3]")
	bare.press(tcell.KeyRune, '?')
	text := bare.text()
	if strings.Contains(text, keymap.Keys.Object.Logs.Description) || strings.Contains(text, keymap.Keys.Object.PrevLogs.Description) {
		t.Error("the help lists `l` or `p` with no logs screen registered")
	}
}

// TestPluginOnALogsScreenGetsTheConnection: a registered screen that is a plugins.Subject (the logs view of one
// pod) runs the plugins of its scopes with its variables and the connection's.
func TestPluginOnALogsScreenGetsTheConnection(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	printf := `printf '%s|' "$POD" "$CONTAINER" "$CONTEXT" "$CLUSTER" > ` + out
	plugins := []config.Plugin{{Name: "tail", ShortCut: "Shift-K", Scopes: []string{"containers"}, Command: "sh",
		Background: true, Args: []string{"-c", printf}}}
	h := start(t, 120, 30, func(o *Options) { o.Resource = "pods"; o.Plugins = plugins })
	h.press(tcell.KeyRune, '/')
	h.typeText("web-7d9f-abcde\n")
	h.press(tcell.KeyRune, 'K') // not a pod's plugin: nothing runs
	h.press(tcell.KeyRune, 'l')
	h.eventually("logs stub of pods web-7d9f-abcde")
	h.press(tcell.KeyRune, 'K')
	h.eventually("plugin tail done")
	if data, _ := os.ReadFile(out); string(data) != "web-7d9f-abcde|web|admin|devcluster|" {
		t.Fatalf("the plugin's environment: %q", data)
	}
}

// stubLogs is the tests' logs screen (the real one, package ui/logview, imports ui), pushed at once: a line
// naming the object, with the real one's keys (keymap.Keys.Logs between help and quit, checked there) doing
// nothing; like the real one, a plugin host of the pod's container and painted with the skin's logs
// background.
func stubLogs(nav Navigator, res discovery.Resource, row *watch.Row, previous bool, _ LogSettings) {
	text := "logs stub of " + res.Name + " " + row.Name
	if previous {
		text += " (previous)"
	}
	view := tview.NewTextView().SetText(text)
	view.SetBorder(true)
	nav.Push(&stubLogsScreen{stubScreen: stubScreen{nav: nav, text: view}, pod: row.Name})
}

// stubLogsScreen is what stubLogs pushes.
type stubLogsScreen struct {
	stubScreen
	pod string
}

func (s *stubLogsScreen) Bindings() []keymap.Binding {
	keys := []keymap.Binding{s.nav.HelpBinding()}
	l := keymap.Keys.Logs
	for _, d := range []keymap.KeyDef{l.Search, l.Filter, l.NextMatch, l.PrevMatch, l.Follow, l.Timestamps, l.Wrap, l.JSON,
		l.Tail, l.Since1m, l.Since5m, l.Since15m, l.Since30m, l.Since1h, l.All, l.Copy, l.Save} {
		keys = append(keys, d.Bind(func() {}))
	}
	return append(keys, s.nav.QuitBinding())
}

func (s *stubLogsScreen) PluginScopes() []string { return []string{"containers", "container", "co"} }

func (s *stubLogsScreen) PluginSubject() (string, map[string]string, bool) {
	env := map[string]string{"NAMESPACE": "shop", "POD": s.pod, "CONTAINER": "web", "NAME": "web"}
	return "container web of pod " + s.pod, env, true
}

func (*stubLogsScreen) SkinBackground(t *theme.Theme) (tcell.Color, bool) { return t.LogBg, t.HasLogBg }
