package livetable

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/spawn"
	"kscope/ui/keymap"
	"kscope/ui/theme"
	"kscope/watch"
)

// t0 is the tests' time: rows are created relative to it, and the fake clock starts there.
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// fakeHost is a table's host for the package's tests: a mutex stands for the UI goroutine (queued functions
// and the test's own steps take it in turn), the table draws on a simulation screen, the prompt line records
// what the table asks and says, files are saved to a temporary folder, and the keys are the table's own. No cluster: the tables tested have no
// metrics, and their HEALTH column stays off.
type fakeHost struct {
	t   testing.TB
	ctx context.Context
	clk *clocktesting.FakeClock
	dir string

	ui sync.Mutex // held while a function runs "on the UI goroutine"
	// table is the table hosted (set once made); the fields below are read and written under ui.
	table    *Table
	errors   []string
	messages []string
	asked    string            // the last label Ask showed
	answer   func(text string) // and what it does with the text
	opened   []*watch.Row      // the rows Open was given
	draws    int               // the table's own redraws (Draw)
	screen   tcell.SimulationScreen
	// cluster is what Cluster returns (nil but for newTableOn's).
	cluster cluster.Interface
}

// screenW and screenH are the size of the fake screen the table is drawn on.
const screenW, screenH = 100, 30

// newTable returns a started table of res over src on a fake host, and its host. The table closes with t.
func newTable(t testing.TB, res discovery.Resource, src cluster.RowSource) (*Table, *fakeHost) {
	t.Helper()
	return newTableOn(t, res, src, nil)
}

// newTableOn is newTable on a host whose Cluster is conn.
func newTableOn(t testing.TB, res discovery.Resource, src cluster.RowSource, conn cluster.Interface) (*Table, *fakeHost) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h := &fakeHost{t: t, ctx: ctx, clk: clocktesting.NewFakeClock(t0), dir: t.TempDir(),
		screen: tcell.NewSimulationScreen("UTF-8"), cluster: conn}
	if err := h.screen.Init(); err != nil {
		t.Fatal(err)
	}
	h.screen.SetSize(screenW, screenH)
	h.run(func() {
		h.table = New(h, res, src, res.Name)
		h.table.Primitive().SetRect(0, 0, screenW, screenH)
		h.table.Activate()
	})
	t.Cleanup(func() {
		h.run(h.table.Close)
		cancel()
	})
	return h.table, h
}

// run runs fn as the UI goroutine would.
func (h *fakeHost) run(fn func()) {
	h.ui.Lock()
	defer h.ui.Unlock()
	fn()
}

// press presses the key of one of the table's bindings, on the UI goroutine; it fails the test when no
// binding takes it.
func (h *fakeHost) press(key tcell.Key, r rune) {
	h.t.Helper()
	ev := tcell.NewEventKey(key, r, tcell.ModNone)
	var taken bool
	h.run(func() {
		if b := keymap.Find(h.table.Bindings(), ev); b != nil {
			b.Run()
			taken = true
		}
	})
	if !taken {
		h.t.Fatalf("no key of the table takes %s", ev.Name())
	}
}

// reply answers the question on the prompt line with text.
func (h *fakeHost) reply(text string) {
	h.t.Helper()
	h.run(func() {
		if h.answer == nil {
			h.t.Fatal("the table asked nothing")
		}
		answer := h.answer
		h.answer = nil
		answer(text)
	})
}

// paint draws the table on the fake screen. UI goroutine.
func (h *fakeHost) paint() {
	h.screen.Clear()
	h.table.Primitive().Draw(h.screen)
	h.screen.Show()
}

// text draws the table and returns the screen as lines of text, trailing spaces trimmed.
func (h *fakeHost) text() string {
	var b strings.Builder
	h.run(func() {
		h.paint()
		cells, w, hgt := h.screen.GetContents()
		for y := range hgt {
			var line strings.Builder
			for x := range w {
				if c := cells[y*w+x]; len(c.Runes) > 0 {
					line.WriteString(string(c.Runes))
				} else {
					line.WriteByte(' ')
				}
			}
			b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
		}
	})
	return b.String()
}

// style is the style of the first cell of substr on the screen as text shows it (false: not on screen).
func (h *fakeHost) style(substr string) (tcell.Style, bool) {
	lines := strings.Split(h.text(), "\n")
	var style tcell.Style
	found := false
	h.run(func() {
		cells, w, _ := h.screen.GetContents()
		for y, l := range lines {
			if i := strings.Index(l, substr); i >= 0 {
				style, found = cells[y*w+len([]rune(l[:i]))].Style, true
				return
			}
		}
	})
	return style, found
}

// contains fails the test when the screen lacks substr.
func (h *fakeHost) contains(substr string) {
	h.t.Helper()
	if s := h.text(); !strings.Contains(s, substr) {
		h.t.Errorf("screen lacks %q:\n%s", substr, s)
	}
}

// lacks fails the test when the screen shows substr.
func (h *fakeHost) lacks(substr string) {
	h.t.Helper()
	if s := h.text(); strings.Contains(s, substr) {
		h.t.Errorf("screen shows %q:\n%s", substr, s)
	}
}

// selected is the key of the row under the cursor.
func (h *fakeHost) selected() (key string) {
	h.run(func() { key = h.table.SelectedKey() })
	return key
}

// names are the names of the rows the table shows, in order.
func (h *fakeHost) names() []string {
	var out []string
	h.run(func() {
		for _, r := range h.table.Rows() {
			out = append(out, r.Name)
		}
	})
	return out
}

func (h *fakeHost) Context() context.Context { return h.ctx }
func (h *fakeHost) Go(fn func())             { go fn() }
func (h *fakeHost) Spawn() spawn.Func        { return func(fn func()) { go fn() } }
func (h *fakeHost) Update(fn func())         { h.run(fn) }
func (h *fakeHost) Queue(fn func())          { h.run(fn) }
func (h *fakeHost) Draw()                    { h.draws++; h.paint() }
func (h *fakeHost) SpaceRedraw(ctx context.Context, _ *time.Time) bool {
	return ctx.Err() == nil
}
func (h *fakeHost) Clock() clock.WithTicker { return h.clk }
func (h *fakeHost) Timing() Timing          { return Timing{FlashFor: time.Second, GhostFor: 3 * time.Second} }
func (h *fakeHost) Theme() *theme.Theme     { return theme.Default() }
func (h *fakeHost) Message(text string)     { h.messages = append(h.messages, text) }
func (h *fakeHost) Errorf(format string, args ...any) {
	h.errors = append(h.errors, fmt.Sprintf(format, args...))
}
func (h *fakeHost) Ask(label, _ string, done func(text string)) { h.asked, h.answer = label, done }
func (h *fakeHost) SaveFile(_, name string, data []byte) (string, error) {
	path := filepath.Join(h.dir, name)
	return path, os.WriteFile(path, data, 0o600)
}
func (h *fakeHost) Cluster() cluster.Interface { return h.cluster }
func (h *fakeHost) Settle()                    {}
func (h *fakeHost) OnTop() bool                { return true }
func (h *fakeHost) ShowStatus()                {}
func (h *fakeHost) StatusText() string         { return "" }
func (h *fakeHost) StatusNote() string         { return "" }
func (h *fakeHost) Bindings() []keymap.Binding {
	t := h.table
	keys := append([]keymap.Binding{t.FilterBinding(), t.OpenBinding()}, t.ViewBindings()...)
	keys = append(keys, t.HiddenBindings()...)
	keys = append(keys, t.MarkBindings()...)
	return append(keys, t.ColumnBindings()...)
}
func (h *fakeHost) Open(_ discovery.Resource, row *watch.Row) { h.opened = append(h.opened, row) }
func (h *fakeHost) NamespaceChanged(string) bool              { return false }

var _ Host = (*fakeHost)(nil)
