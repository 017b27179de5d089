package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/watch"
)

// collidingSpec is a registered screen of the tests named title, with one command of names (none if
// empty) and the keys given on the selected object, on live tables and of hidden rows.
func collidingSpec(title string, names []string, objects, tables, hidden []keymap.KeyDef) ScreenSpec {
	s := ScreenSpec{Keys: keymap.Family{Title: title + " (a stub)", Screen: "ui/stub"}}
	if len(names) > 0 {
		s.Commands = []Command{{Names: names, Run: func(s Session, _ []string) { s.Message(title + " ran") }}}
	}
	for _, d := range objects {
		s.Objects = append(s.Objects, ObjectKey{Key: d, Open: func(Session, discovery.Resource, *watch.Row) {}})
	}
	for _, d := range tables {
		s.Tables = append(s.Tables, TableKey{Key: d, Open: func(Session, string, cluster.RowSource) {}})
	}
	for _, d := range hidden {
		s.Hidden = append(s.Hidden, HiddenRows{Applies: func(discovery.Resource) bool { return false },
			Rows: livetable.Hidden{Key: d}})
	}
	return s
}

// TestScreenCollisions: a registered screen's command of one of kscope's names or of an earlier screen's,
// and its key that kscope or an earlier screen binds in the same views (the tables for every key of a
// screen, the views of one object for its object keys), each make one line naming the screen, the name or
// key and who has it; kscope's own screens (the harness's) and a key bound in other views make none.
func TestScreenCollisions(t *testing.T) {
	k := keymap.Keys
	mark := keymap.NewKey("stub mark", keymap.Char('m'), "")
	for _, tt := range []struct {
		name    string
		screens []ScreenSpec
		want    []string
	}{
		{"none registered", nil, nil},
		{"the harness's screens", stubScreens(), nil},
		{"a command of kscope's",
			[]ScreenSpec{collidingSpec("Feed view", []string{"feed", "ns"}, nil, nil, nil)},
			[]string{"Feed view's command :ns is kscope's too: Feed view's never runs"}},
		{"a command of an earlier screen's",
			[]ScreenSpec{collidingSpec("Feed view", []string{"feed"}, nil, nil, nil), collidingSpec("Other view", []string{"fd", "feed"}, nil, nil, nil)},
			[]string{"Other view's command :feed is Feed view's too: Other view's never runs"}},
		{"an object key of kscope's in the tables",
			[]ScreenSpec{collidingSpec("Feed view", nil, []keymap.KeyDef{keymap.NewKey("stub yaml", keymap.Char('y'), "")}, nil, nil)},
			[]string{"Feed view's key y (stub yaml) is kscope's yaml too, in the tables"}},
		{"an object key of the YAML view's, in the views of one object",
			[]ScreenSpec{collidingSpec("Feed view", nil, []keymap.KeyDef{mark}, nil, nil)},
			[]string{"Feed view's key m (stub mark) is kscope's managedFields too, in the views of one object"}},
		{"a table key where the YAML view binds it: none", []ScreenSpec{collidingSpec("Feed view", nil, nil, []keymap.KeyDef{mark}, nil)}, nil},
		{"a table key of kscope's",
			[]ScreenSpec{collidingSpec("Feed view", nil, nil, []keymap.KeyDef{keymap.NewKey("stub back", keymap.Char('['), "")}, nil)},
			[]string{"Feed view's key [ (stub back) is kscope's back too, in the tables"}},
		{"a key of hidden rows of kscope's",
			[]ScreenSpec{collidingSpec("Feed view", nil, nil, nil, []keymap.KeyDef{keymap.NewKey("stub rows", keymap.Key(tcell.KeyCtrlZ, "ctrl-z"), "")})},
			[]string{"Feed view's key ctrl-z (stub rows) is kscope's faults too, in the tables"}},
		{"an earlier screen's object key taken by a table key",
			[]ScreenSpec{stubRolloutsSpec, collidingSpec("Feed view", nil, nil, []keymap.KeyDef{keymap.NewKey("stub r", keymap.Shifted('R'), "")}, nil)},
			[]string{"Feed view's key shift-r (stub r) is Rollouts view's rollouts too, in the tables"}},
		{"a role an earlier screen plays",
			[]ScreenSpec{stubRoles(), {Keys: keymap.Family{Title: "Other YAML (a stub)"}, Plays: Roles{YAML: stubYAML, Describe: stubDescribe}}},
			[]string{"Other YAML plays the YAML view too: ui/stubroles's is the one opened",
				"Other YAML plays the describe view too: ui/stubroles's is the one opened"}},
		{"roles played once each: none",
			[]ScreenSpec{{Keys: keymap.Family{Screen: "ui/a"}, Plays: Roles{YAML: stubYAML}}, {Keys: keymap.Family{Screen: "ui/b"}, Plays: Roles{History: stubHistory}}}, nil},
		{"a global key, one line for both views",
			[]ScreenSpec{collidingSpec("Feed view", nil, []keymap.KeyDef{keymap.NewKey("stub help", k.Views.Help.Key, "")}, nil, nil)},
			[]string{"Feed view's key ? (stub help) is kscope's help too, in the tables"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := ScreenCollisions(tt.screens); !slices.Equal(got, tt.want) {
				t.Errorf("ScreenCollisions:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestCommandNames: kscope's own command names are those the command bar runs that no registered screen
// declares; each is offered by Tab.
func TestCommandNames(t *testing.T) {
	h := start(t, 100, 30, nil)
	var bar []string
	h.ui(func() {
		for _, c := range h.app.barCommands() {
			bar = append(bar, c.Names...)
		}
	})
	registered := map[string]bool{}
	for _, s := range stubScreens() {
		for _, c := range s.Commands {
			for _, n := range c.Names {
				registered[n] = true
			}
		}
	}
	bar = slices.DeleteFunc(bar, func(n string) bool { return registered[n] })
	if got := CommandNames(); len(got) == 0 || !slices.Equal(got, bar) {
		t.Errorf("CommandNames() = %q, the bar's own %q", got, bar)
	}
}

// TestRegisteredScreenCollisionShown: an app built with a registered screen whose command takes kscope's
// :ns says so on the prompt line at start, naming the screen, the name and whose it is; :ns is kscope's
// still.
func TestRegisteredScreenCollisionShown(t *testing.T) {
	h := start(t, 140, 30, func(o *Options) {
		o.Registered = append(stubScreens(), collidingSpec("Feed view", []string{"ns"}, nil, nil, nil))
	})
	waitFor(t, h, "Feed view's command :ns is kscope's too: Feed view's never runs")
	h.command("ns shop")
	waitFor(t, h, "namespace: shop")
	if strings.Contains(h.text(), "Feed view ran") {
		t.Error("the registered screen's :ns ran, not kscope's")
	}
}
