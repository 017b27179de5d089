package ui

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/config"
	"kscope/discovery"
	"kscope/ui/keymap"
)

// keyPaths reach every kind of view from the pods table filtered to one pod: the keys pressed, in order
// (":pf" is a command line, "esc" and "enter" those keys).
var keyPaths = [][]string{
	nil, {"esc"}, {"y"}, {"y", "b"}, {"d"}, {"h"}, {"t"}, {"i"}, {"l"}, {"?"}, {"y", "?"}, {":pf"}, {":nodes"}, {":cronjobs"},
}

// viewsWithKeys are the types of the package that have Bindings(), read from its source, as %T prints them
// (the live table for tableHost, which composes the table's keys).
func viewsWithKeys(t *testing.T) []string {
	pkgs, err := parser.ParseDir(token.NewFileSet(), ".", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range pkgs["ui"].Files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "Bindings" || fn.Recv == nil {
				continue
			}
			if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
				typ := "*ui." + star.X.(*ast.Ident).Name
				if typ == "*ui.tableHost" { // the keys of the live table, which shows them
					typ = "*livetable.Table"
				}
				out = append(out, typ)
			}
		}
	}
	slices.Sort(out)
	return out
}

// reachView shows the pods table filtered to one pod, then presses path; it returns the view on top.
func reachView(h *harness, path []string) Screen {
	h.t.Helper()
	h.ui(func() {
		h.app.bar.Close()
		if h.app.modal != nil {
			h.app.closeModal()
		}
		h.app.popTo(1)
	})
	h.command("pods")
	h.press(tcell.KeyRune, '/')
	h.typeText("abcde\n")
	for _, k := range path {
		var before Screen
		h.quietly(func() { before = h.app.top() })
		switch k {
		case ":pf", ":nodes", ":cronjobs":
			h.command(k[1:])
			continue
		case "esc":
			h.press(tcell.KeyEscape, 0)
			h.press(tcell.KeyEscape, 0) // (the first clears the filter)
		case "enter":
			h.press(tcell.KeyEnter, 0)
		default:
			h.press(tcell.KeyRune, rune(k[0]))
		}
		h.until("the view of "+k, func() bool { return h.app.top() != before })
		h.until("the object read", func() bool { y, ok := h.app.top().(*stubObjectScreen); return !ok || y.describe || y.shown != nil })
	}
	var v Screen
	h.quietly(func() { v = h.app.top() })
	return v
}

// TestNoKeyBoundTwice: in every view (every type with bindings(), found in the source), with plugins and
// hotkeys configured on keys the views bind (with and without override), the keys a view answers to (its
// own, the plugins that apply there, the global keys and the hotkeys) never share a key: a configured key
// that loses is listed as a conflict, not bound. Every binding with an action is named and described, every
// one of kscope's is Keys's (its name, key and description), and every entry of Keys is bound.
func TestNoKeyBoundTwice(t *testing.T) {
	plugin := func(name, key string, override bool, scopes ...string) config.Plugin {
		return config.Plugin{Name: name, ShortCut: key, Override: override, Scopes: scopes, Command: "true", Description: name}
	}
	h := start(t, 120, 40, func(o *Options) {
		o.Resource = "pods"
		withNodes(o.Cluster.(*fakeCluster))
		withCronJobs(o.Cluster.(*fakeCluster))
		o.Plugins = []config.Plugin{plugin("on-d", "d", false, "all"), plugin("on-c", "c", true, "pods"),
			plugin("on-s", "s", false, "containers"), plugin("on-t", "t", true, "co"), plugin("on-k", "Shift-K", false, "all"),
			plugin("on-k2", "Shift-K", false, "pods")}
		o.HotKeys = []config.HotKey{{Name: "over-w", ShortCut: "w", Command: "deploy", Override: true},
			{Name: "on-n", ShortCut: "n", Command: "deploy"}, {Name: "on-colon", ShortCut: ":", Command: "deploy"}}
	})
	reached, used := map[string]bool{}, map[string]bool{}
	pluginsIn := map[string]int{}
	for _, path := range keyPaths {
		v := reachView(h, path)
		name := fmt.Sprintf("%T %v", v, path)
		reached[fmt.Sprintf("%T", v)] = true
		var k keySet
		h.ui(func() { k = h.app.viewKeys(v) })
		keys := append(slices.Clone(k.own), k.global...)
		for i, b := range keys {
			if b.Active() && (b.Name == "" || b.Description == "" || b.Label == "") {
				t.Errorf("%s: binding %+v lacks a label, name or description", name, b)
			}
			if strings.HasPrefix(b.Name, "plugin ") {
				pluginsIn[fmt.Sprintf("%T", v)]++
			}
			for _, o := range keys[i+1:] {
				if b.Same(o) {
					t.Errorf("%s: %q is bound twice: %s and %s", name, b.Label, b.Name, o.Name)
				}
			}
		}
		fromTable(t, name, keys, used)
		for _, c := range k.conflicts {
			fromTable(t, name, []keymap.Binding{c.lost, c.kept}, used)
			if slices.ContainsFunc(keys, func(b keymap.Binding) bool { return b.Name == c.lost.Name && b.Same(c.lost) }) {
				t.Errorf("%s: %s lost %s to %s, yet is bound", name, c.lost.Name, c.lost.Label, c.kept.Name)
			}
		}
	}
	h.ui(func() { // scale: the object keys of a kind other than pods
		deploy := func() (discovery.Resource, string) { return discovery.Resource{Group: "apps", Name: "deployments"}, "" }
		fromTable(t, "deployments", h.app.objectBindings(nil, deploy, nil), used)
	})
	for _, f := range KeyFamilies(stubScreens()) {
		for _, d := range f.Defs {
			if f.Screen == "" && !used[keyID(d.Name, d.Key.Label, d.Description)] { // (else its package's tests check)
				t.Errorf("Keys's %s %q (%s) is bound in no view keyPaths reach", d.Key.Label, d.Name, f.Title)
			}
		}
	}
	for _, typ := range viewsWithKeys(t) {
		if !reached[typ] {
			t.Errorf("no path reaches %s: add one to keyPaths", typ)
		}
	}
	if pluginsIn["*livetable.Table"] == 0 || pluginsIn["*ui.stubLogsScreen"] == 0 {
		t.Errorf("plugins bound per view: %v; want some in the table and in the logs view", pluginsIn)
	}
}
