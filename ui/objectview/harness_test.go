package objectview

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/navtest"
	"kscope/watch"
)

var update = flag.Bool("update", false, "rewrite the golden screens")

// wait bounds every wait for what a view does off the UI goroutine (generous: -race on a loaded machine).
const wait = 30 * time.Second

// viewTest opens the views of one object over a fakeCluster through navtest.Nav, with a fakeObject as what ui
// hands them, and draws the view on a simulation screen to read it as the user would.
type viewTest struct {
	t       *testing.T
	nav     *navtest.Nav
	cluster *fakeCluster
	obj     *fakeObject
	screen  tcell.SimulationScreen
	w, h    int
}

func newViewTest(t *testing.T, w, h int) *viewTest {
	t.Helper()
	c := newFakeCluster()
	screen := tcell.NewSimulationScreen("UTF-8")
	if err := screen.Init(); err != nil {
		t.Fatal(err)
	}
	screen.SetSize(w, h)
	t.Cleanup(screen.Fini)
	return &viewTest{t: t, nav: navtest.New(t, c), cluster: c, obj: &fakeObject{}, screen: screen, w: w, h: h}
}

// fakeObject is the tests' ui.ObjectView: its object keys (describe, edit) and openers record what they were
// asked, with the object the view said it shows. Safe for concurrent use.
type fakeObject struct {
	mu       sync.Mutex
	pressed  []string // "edit uid-web" ("deleted" when the view said so)
	recorded []watch.ObjectEvent
	blamed   []*unstructured.Unstructured
}

// view is the ui.ObjectView of the fake; its History, Blame and YAML are set (each records its name).
func (f *fakeObject) view() ui.ObjectView {
	note := func(s string) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.pressed = append(f.pressed, s)
	}
	return ui.ObjectView{
		Keys: func(shown func() (types.UID, bool)) []keymap.Binding {
			key := func(k keymap.KeyDef) keymap.Binding {
				return k.Bind(func() {
					uid, deleted := shown()
					if deleted {
						note(k.Name + " deleted")
						return
					}
					note(k.Name + " " + string(uid))
				})
			}
			return []keymap.Binding{key(keymap.Keys.Object.Describe), key(keymap.Keys.Object.Edit)}
		},
		History: func() { note("history") },
		Blame: func(obj *unstructured.Unstructured) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.blamed = append(f.blamed, obj)
		},
		YAML: func() { note("yaml") },
		Record: func(ev watch.ObjectEvent) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.recorded = append(f.recorded, ev)
		},
	}
}

func (f *fakeObject) presses() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.pressed...)
}

// open opens a view of shop/name, an object of res, with newView (NewYAMLView, NewDescribeView) as the app
// does (pushed, activated).
func (vt *viewTest) open(newView func(ui.Navigator, discovery.Resource, *watch.Row, ui.ObjectView) ui.Screen,
	res discovery.Resource, name string) ui.Screen {
	var v ui.Screen
	row := &watch.Row{Key: "shop/" + name, Namespace: "shop", Name: name}
	if o, ok := vt.cluster.objects[objectKey(res.GVR(), "shop", name)]; ok {
		row.UID = o.GetUID()
	}
	vt.nav.UI(func() {
		v = newView(vt.nav, res, row, vt.obj.view())
		vt.nav.Push(v)
		v.Activate()
	})
	vt.t.Cleanup(func() { vt.nav.UI(v.Close) })
	return v
}

// text draws v at the screen's size and returns it, then its status line, as text.
func (vt *viewTest) text(v ui.Screen) string {
	var out string
	vt.nav.UI(func() {
		vt.screen.Clear()
		var focus func(p tview.Primitive)
		focus = func(p tview.Primitive) { p.Focus(focus) }
		focus(v.Primitive()) // as the app gives it: the text's border doubled
		v.Primitive().SetRect(0, 0, vt.w, vt.h)
		v.Primitive().Draw(vt.screen)
		vt.screen.Show()
		out = screenText(vt.screen) + "\n" + plain(v.Status())
	})
	return out
}

// eventually waits for v's drawing or status to show substr; the test fails with the screen if it does not.
func (vt *viewTest) eventually(v ui.Screen, substr string) {
	vt.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		text := vt.text(v)
		if strings.Contains(text, substr) {
			return
		}
		if time.Now().After(deadline) {
			vt.t.Fatalf("%q not shown after %v:\n%s", substr, wait, text)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// contains and lacks check v's drawing and status now.
func (vt *viewTest) contains(v ui.Screen, substr string) {
	vt.t.Helper()
	if text := vt.text(v); !strings.Contains(text, substr) {
		vt.t.Fatalf("%q not shown:\n%s", substr, text)
	}
}

func (vt *viewTest) lacks(v ui.Screen, substr string) {
	vt.t.Helper()
	if text := vt.text(v); strings.Contains(text, substr) {
		vt.t.Fatalf("%q shown:\n%s", substr, text)
	}
}

// until waits for cond, read on the UI goroutine.
func (vt *viewTest) until(what string, cond func() bool) {
	vt.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		var ok bool
		vt.nav.UI(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			vt.t.Fatalf("%s: not after %v", what, wait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// press delivers a key to v as the app does.
func (vt *viewTest) press(v ui.Screen, key tcell.Key, r rune) {
	vt.nav.Press(v, tcell.NewEventKey(key, r, tcell.ModNone))
}

// search searches v for text as the user does: `/`, the text on the prompt line, Enter.
func (vt *viewTest) search(v ui.Screen, text string) {
	vt.t.Helper()
	vt.press(v, tcell.KeyRune, '/')
	if !vt.nav.Answer(text) {
		vt.t.Fatalf("/ asked nothing")
	}
}

// style returns the style of the first cell of substr as last drawn.
func (vt *viewTest) style(v ui.Screen, substr string) (tcell.Style, bool) {
	lines := strings.Split(vt.text(v), "\n")
	var st tcell.Style
	found := false
	vt.nav.UI(func() {
		cells, w, _ := vt.screen.GetContents()
		for y, l := range lines {
			if i := strings.Index(l, substr); i >= 0 && y < len(cells)/w {
				st, found = cells[y*w+len([]rune(l[:i]))].Style, true
				return
			}
		}
	})
	return st, found
}

// golden compares v's drawing and status with testdata/name.txt (-update rewrites it).
func (vt *viewTest) golden(v ui.Screen, name string) {
	vt.t.Helper()
	got := vt.text(v) + "\n"
	path := filepath.Join("testdata", name+".txt")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			vt.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			vt.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		vt.t.Fatalf("read golden screen (run with -update to create it): %v", err)
	}
	if got != string(want) {
		vt.t.Errorf("screen differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// screenText returns the screen's cells as lines of text, trailing spaces trimmed (navtest.CellsText without
// the last newline).
func screenText(screen tcell.SimulationScreen) string {
	return strings.TrimSuffix(navtest.CellsText(screen.GetContents()), "\n")
}

// plain is markup as the user reads it.
func plain(markup string) string {
	return tview.NewTextView().SetDynamicColors(true).SetText(markup).GetText(true)
}
