package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/config"
	"kscope/ui/keymap"
)

// TestKeyRemapCollisions: what a remap does to one view's keys, and when it is not applied.
func TestKeyRemapCollisions(t *testing.T) {
	run := func() {}
	keys := []keymap.Binding{
		keymap.Char('d').Does("describe", "x", run),
		keymap.Char('y').Does("yaml", "x", run),
		keymap.Key(tcell.KeyCtrlD, "ctrl-d").Does("delete", "x", run),
		keymap.Char('q').Does("quit", "x", run),
		keymap.Key(tcell.KeyEscape, "esc").Does("back", "x", run),
		keymap.Key(tcell.KeyCtrlC, "ctrl-c").Does("quit", "x", run),
	}
	tests := []struct {
		name   string
		remaps map[string]string
		want   string // the labels after, in order
		notes  []string
	}{
		{"none", nil, "d y ctrl-d q esc ctrl-c", nil},
		{"a free key", map[string]string{"describe": "Shift-D"}, "shift-d y ctrl-d q esc ctrl-c", nil},
		{"a swap", map[string]string{"describe": "y", "yaml": "d"}, "y d ctrl-d q esc ctrl-c", nil},
		{"onto another's key", map[string]string{"describe": "y"}, "d y ctrl-d q esc ctrl-c",
			[]string{"keys.yaml: describe → y not applied here: y is yaml"}},
		{"two onto one key", map[string]string{"describe": "x", "yaml": "x"}, "d y ctrl-d q esc ctrl-c",
			[]string{"keys.yaml: describe → x not applied here: x is yaml", "keys.yaml: yaml → x not applied here: x is describe"}},
		{"undoing one frees nothing for the other", map[string]string{"describe": "y", "delete": "d"}, "d y ctrl-d q esc ctrl-c",
			[]string{"keys.yaml: describe → y not applied here: y is yaml", "keys.yaml: delete → d not applied here: d is describe"}},
		{"the first of a name", map[string]string{"quit": "Ctrl-Q"}, "d y ctrl-d ctrl-q esc ctrl-c", nil},
		{"a global key", map[string]string{"back": "Ctrl-B"}, "d y ctrl-d q ctrl-b ctrl-c", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in []config.KeyRemap
			for n, k := range tt.remaps {
				in = append(in, config.KeyRemap{Name: n, Key: k})
			}
			r, bad := newKeyRemaps(in, keymap.Names(keymap.Keys.Families()))
			if len(bad) > 0 {
				t.Fatalf("bad: %v", bad)
			}
			got, notes := r.apply(keys)
			labels := make([]string, len(got))
			for i, b := range got {
				labels[i] = b.Label
			}
			if strings.Join(labels, " ") != tt.want {
				t.Errorf("keys %q, want %q", strings.Join(labels, " "), tt.want)
			}
			slices.Sort(notes)
			want := slices.Sorted(slices.Values(tt.notes))
			if !slices.Equal(notes, want) {
				t.Errorf("notes %q, want %q", notes, want)
			}
			if keys[0].Label != "d" {
				t.Fatal("apply changed its argument")
			}
		})
	}
}

// TestKeyRemapRefused: unknown names, the widget's keys and unreadable keys are one line each.
func TestKeyRemapRefused(t *testing.T) {
	r, bad := newKeyRemaps([]config.KeyRemap{{Name: "describe", Key: "Shift-D"}, {Name: "descrbe", Key: "x"}, {Name: "move", Key: "x"}, {Name: "yaml", Key: "Hyper-Y"}}, keymap.Names(keymap.Keys.Families()))
	want := []string{
		`keys.yaml: no key is called "descrbe" (the names are the help's NAME column: describe, yaml, logs …)`,
		"keys.yaml: move is the list's own keys (arrows, j k, pgup pgdn, g G): they cannot be rebound",
		`keys.yaml: yaml: unknown key "Hyper-Y" (keys are written a, Shift-A, Shift-0, Ctrl-U, F1 …)`,
	}
	if !slices.Equal(bad, want) || len(r.to) != 1 || r.to["describe"].Label != "shift-d" {
		t.Fatalf("bad %q (want %q), remaps %v", bad, want, r.to)
	}
}

// TestBindingNamesKnown: every key of every view is in keymap.Names of the app's key table (KeyFamilies of the
// registered screens: the names keys.yaml may use), and
// every name there is some view's.
func TestBindingNamesKnown(t *testing.T) {
	h := start(t, 120, 30, func(o *Options) {
		o.Resource = "pods"
		withNodes(o.Cluster.(*fakeCluster))
		withCronJobs(o.Cluster.(*fakeCluster))
	})
	seen := map[string]bool{}
	collect := func() {
		h.ui(func() {
			own, global := h.app.keys(h.app.top())
			for _, b := range append(own, global...) {
				if !b.Active() || strings.HasPrefix(b.Name, "hotkey ") || strings.HasPrefix(b.Name, "plugin ") {
					continue
				}
				seen[b.Name] = true
				if !slices.Contains(keymap.Names(KeyFamilies(stubScreens())), b.Name) {
					t.Errorf("%s: key %s %q is not in keymap.Names(KeyFamilies(stubScreens()))", h.app.top().Crumb(), b.Label, b.Name)
				}
			}
		})
	}
	back := func() { h.press(tcell.KeyEscape, 0) }
	collect()
	h.ui(func() { h.app.popTo(1) })
	collect() // the picker
	h.command("deploy")
	collect()
	back()
	for _, r := range []string{"nodes", "cronjobs"} {
		h.command(r)
		collect()
		back()
	}
	h.command("pods")
	h.press(tcell.KeyRune, '/')
	h.typeText("web-7d9f-abcde\n")
	for _, k := range []rune{'y', 'd', '?', 'l'} {
		h.press(tcell.KeyRune, k)
		h.sync()
		if k == 'l' { // the (stub) logs view
			h.until("the logs view", func() bool { _, ok := h.app.top().(*stubLogsScreen); return ok })
		}
		collect()
		back()
	}
	elsewhere := map[string]bool{} // the names only screens in packages of their own bind (their tests check them)
	for _, f := range KeyFamilies(stubScreens()) {
		for _, d := range f.Defs {
			elsewhere[d.Name] = f.Screen != ""
		}
	}
	for _, f := range KeyFamilies(stubScreens()) {
		for _, d := range f.Defs {
			if f.Screen == "" {
				elsewhere[d.Name] = false
			}
		}
	}
	for _, n := range keymap.Names(KeyFamilies(stubScreens())) {
		if !seen[n] && n != "back" && !elsewhere[n] {
			t.Errorf("keymap.Names(KeyFamilies(stubScreens())) has %q, which no view binds", n)
		}
	}
}

// TestHelpShowsRemappedKeys: keys.yaml's keys drive the handling and the help; the old key does nothing.
func TestHelpShowsRemappedKeys(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Keys = []config.KeyRemap{{Name: "describe", Key: "Shift-D"}, {Name: "yaml", Key: "Ctrl-Y"}}
	})
	h.press(tcell.KeyRune, '?')
	h.golden("help_remapped_100x30")
	h.press(tcell.KeyEscape, 0)
	before := h.app.top()
	h.press(tcell.KeyRune, 'd')
	h.ui(func() {
		if h.app.top() != before {
			t.Errorf("d still opened %s", h.app.top().Crumb())
		}
	})
	h.press(tcell.KeyRune, 'D')
	h.until("describe opened by shift-d", func() bool { s, ok := h.app.top().(*stubObjectScreen); return ok && s.describe })
	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyCtrlY, 0)
	h.until("yaml opened by ctrl-y", func() bool { s, ok := h.app.top().(*stubObjectScreen); return ok && !s.describe })
}

// TestRemapCollisionSaidOnce: a remap onto another key of the view is not applied there, said on the
// prompt line; the key keeps its default.
func TestRemapCollisionSaidOnce(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Keys = []config.KeyRemap{{Name: "describe", Key: "y"}}
	})
	h.press(tcell.KeyRune, 'j')
	h.eventually("keys.yaml: describe → y not applied in pods: y is yaml")
	h.press(tcell.KeyRune, 'y')
	h.until("y still opens the yaml", func() bool { s, ok := h.app.top().(*stubObjectScreen); return ok && !s.describe })
}
