package logview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/navtest"
	"kscope/watch"
)

// wait bounds every wait for what the view does off the UI goroutine (generous: -race on a loaded machine).
const wait = 30 * time.Second

// logsTest opens logs views over a fakeCluster through navtest.Nav, and draws the view on top on a
// simulation screen of 120×30 cells to read it as the user would.
type logsTest struct {
	t        *testing.T
	nav      *navtest.Nav
	cluster  *fakeCluster
	settings ui.LogSettings
	screen   tcell.SimulationScreen
}

func newLogsTest(t *testing.T, settings ui.LogSettings) *logsTest {
	t.Helper()
	c := newFakeCluster()
	screen := tcell.NewSimulationScreen("UTF-8")
	if err := screen.Init(); err != nil {
		t.Fatal(err)
	}
	screen.SetSize(120, 30)
	t.Cleanup(screen.Fini)
	return &logsTest{t: t, nav: navtest.New(t, c), cluster: c, settings: settings, screen: screen}
}

// seedLog gives shop/pod's container c n lines "c line-I", one a second before t0.
func (lt *logsTest) seedLog(pod, c string, n int) {
	for i := 1; i <= n; i++ {
		lt.cluster.addLog("shop", pod, c, t0.Add(time.Duration(i-n-1)*time.Second), fmt.Sprintf("%s line-%d", c, i))
	}
}

// open opens the logs of shop/name, an object of res, as the keys do (`l`, previous: `p`), and waits for a
// view pushed, a dialog or an error.
func (lt *logsTest) open(res discovery.Resource, name string, previous bool) {
	lt.t.Helper()
	pushed, chosen, errs := len(lt.nav.Pushed()), len(lt.nav.Choices()), len(lt.nav.Errors())
	row := &watch.Row{Key: "shop/" + name, Namespace: "shop", Name: name}
	lt.nav.UI(func() { Open(lt.nav, res, row, previous, lt.settings) })
	lt.until("a logs view, a container picker or an error", func() bool {
		return len(lt.nav.Pushed()) > pushed || len(lt.nav.Choices()) > chosen || len(lt.nav.Errors()) > errs
	})
}

// openPod opens the logs of pod shop/name (one container) and returns the view.
func (lt *logsTest) openPod(name string, previous bool) *View {
	lt.t.Helper()
	lt.open(podsRes, name, previous)
	return lt.top()
}

// top is the view pushed last.
func (lt *logsTest) top() *View {
	lt.t.Helper()
	pushed := lt.nav.Pushed()
	if len(pushed) == 0 {
		lt.t.Fatalf("no view pushed; errors %q", lt.nav.Errors())
	}
	return pushed[len(pushed)-1].(*View)
}

// until waits for cond, run as the UI goroutine.
func (lt *logsTest) until(what string, cond func() bool) {
	lt.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		var ok bool
		lt.nav.UI(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			lt.t.Fatalf("%s: not after %v", what, wait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// text draws v and returns the screen as lines of text, trailing spaces trimmed, then its status line
// (without its color tags).
func (lt *logsTest) text(v *View) string {
	var out string
	lt.nav.UI(func() {
		lt.screen.Clear()
		v.Primitive().Focus(func(tview.Primitive) {}) // as the app gives it: its border doubled
		v.Primitive().SetRect(0, 0, 120, 29)
		v.Primitive().Draw(lt.screen)
		lt.screen.Show()
		out = navtest.CellsText(lt.screen.GetContents()) + "\n" + plain(v.Status())
	})
	return out
}

// eventually waits for v's drawing or status to show substr; the test fails with the screen if it does not.
func (lt *logsTest) eventually(v *View, substr string) {
	lt.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		text := lt.text(v)
		if strings.Contains(text, substr) {
			return
		}
		if time.Now().After(deadline) {
			lt.t.Fatalf("%q not shown after %v:\n%s", substr, wait, text)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// contains and lacks check v's drawing and status now.
func (lt *logsTest) contains(v *View, substr string) {
	lt.t.Helper()
	if text := lt.text(v); !strings.Contains(text, substr) {
		lt.t.Fatalf("%q not shown:\n%s", substr, text)
	}
}

func (lt *logsTest) lacks(v *View, substr string) {
	lt.t.Helper()
	if text := lt.text(v); strings.Contains(text, substr) {
		lt.t.Fatalf("%q shown:\n%s", substr, text)
	}
}

// press delivers a key to v as the app does.
func (lt *logsTest) press(v *View, key tcell.Key, r rune) {
	lt.nav.Press(v, tcell.NewEventKey(key, r, tcell.ModNone))
}

// style returns the style of the first cell of substr as last drawn.
func (lt *logsTest) style(v *View, substr string) (tcell.Style, bool) {
	lines := strings.Split(lt.text(v), "\n")
	var st tcell.Style
	found := false
	lt.nav.UI(func() {
		cells, w, _ := lt.screen.GetContents()
		for y, l := range lines {
			if i := strings.Index(l, substr); i >= 0 && y < len(cells)/w {
				st, found = cells[y*w+len([]rune(l[:i]))].Style, true
				return
			}
		}
	})
	return st, found
}

// untilError waits for an error holding substr on the prompt line.
func (lt *logsTest) untilError(substr string) {
	lt.t.Helper()
	lt.until("the error "+substr, func() bool {
		for _, e := range lt.nav.Errors() {
			if strings.Contains(e, substr) {
				return true
			}
		}
		return false
	})
}

// waitClockWaiter waits until something waits on the fake clock (a follower's backoff).
func (lt *logsTest) waitClockWaiter() {
	lt.t.Helper()
	deadline := time.Now().Add(wait)
	for !lt.nav.FakeClock().HasWaiters() {
		if time.Now().After(deadline) {
			lt.t.Fatalf("nothing waits on the clock after %v", wait)
		}
		time.Sleep(time.Millisecond)
	}
}

// plain is markup without its color tags, as a line of the screen shows it.
func plain(markup string) string {
	return tview.NewTextView().SetDynamicColors(true).SetText(markup).GetText(true)
}

// fg is a style's foreground.
func fg(st tcell.Style) tcell.Color { c, _, _ := st.Decompose(); return c }
