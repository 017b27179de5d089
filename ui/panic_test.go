package ui

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clocktesting "k8s.io/utils/clock/testing"

	"kscope/cluster"
	"kscope/discovery"
)

// finiScreen is a simulation screen that counts Fini calls: Fini is what gives the terminal back (leaves
// the alternate screen, restores the cooked mode) when tview stops or recovers from a panic.
type finiScreen struct {
	tcell.SimulationScreen
	finis atomic.Int32
	mu    sync.Mutex // orders the UI's Show with the test's GetContents
}

func (s *finiScreen) Show() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.SimulationScreen.Show()
}

func (s *finiScreen) Sync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.SimulationScreen.Sync()
}

// GetContents returns a copy of the cells, taken while no Show runs.
func (s *finiScreen) GetContents() ([]tcell.SimCell, int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cells, w, h := s.SimulationScreen.GetContents()
	return append([]tcell.SimCell(nil), cells...), w, h
}

func (s *finiScreen) Fini() {
	s.finis.Add(1)
	s.SimulationScreen.Fini()
}

// explodingCatalog panics when asked to resolve a name, as a bug in a key handler would.
type explodingCatalog struct{ cluster.Catalog }

func (explodingCatalog) Resolve(context.Context, string) (discovery.Resource, error) {
	panic("resolver exploded")
}

func (explodingCatalog) ResolveList(context.Context, string) (discovery.List, error) {
	panic("resolver exploded")
}

// explodingCluster wraps the fixture cluster: its catalog's Resolve panics, and Get of anything but a
// namespace panics (on the goroutine the UI starts for the request).
type explodingCluster struct{ *fakeCluster }

func (c explodingCluster) Catalog() cluster.Catalog { return explodingCatalog{c.fakeCluster.Catalog()} }
func (c explodingCluster) Get(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	if gvr.Resource == "namespaces" { // the UI checks that its namespace exists
		return c.fakeCluster.Get(ctx, gvr, ns, name)
	}
	panic("get exploded")
}

// runExploding runs the UI on a finiScreen over an explodingCluster and returns the screen and Run's result.
func runExploding(t *testing.T, resource string) (*finiScreen, <-chan error) {
	t.Helper()
	app := New(Options{Cluster: explodingCluster{fixtureCluster()}, Resource: resource, Clock: clocktesting.NewFakeClock(t0),
		Tick: -1, MinRedraw: -1, Edit: unchangedEditor})
	screen := &finiScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	app.SetScreen(screen)
	screen.SetSize(100, 30)
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	t.Cleanup(app.Stop)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(screenText(screen), "kscope") {
		if time.Now().After(deadline) {
			t.Fatalf("the UI never drew:\n%s", screenText(screen))
		}
		time.Sleep(10 * time.Millisecond)
	}
	return screen, done
}

func screenText(s tcell.SimulationScreen) string {
	cells, w, _ := s.GetContents()
	var b strings.Builder
	for i, c := range cells {
		if i > 0 && i%w == 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(c.Runes))
	}
	return b.String()
}

// waitRunError waits for Run to return and checks that it returned the panic as an error, once, after the
// screen was finalized.
func waitRunError(t *testing.T, screen *finiScreen, done <-chan error, panicText string) {
	t.Helper()
	select {
	case err := <-done:
		if err == nil || !strings.HasPrefix(err.Error(), "internal error: "+panicText) {
			t.Fatalf("Run returned %v, want the panic %q as an internal error", err, panicText)
		}
		if screen.finis.Load() == 0 {
			t.Fatal("the screen was not finalized: the terminal would stay in the UI's mode")
		}
		t.Logf("Run returned %q after %d Fini call(s)", strings.SplitN(err.Error(), "\n", 2)[0], screen.finis.Load())
	case <-time.After(10 * time.Second):
		t.Fatal("the UI kept running after a panic")
	}
}

// TestPanicInKeyHandlerRestoresTerminal: a panic on the UI goroutine (here in the command bar's resolve)
// finalizes the screen and makes Run return it as an error instead of crashing the process.
func TestPanicInKeyHandlerRestoresTerminal(t *testing.T) {
	screen, done := runExploding(t, "")
	screen.InjectKey(tcell.KeyRune, ':', tcell.ModNone)
	for _, r := range "pods" {
		screen.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
	screen.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	waitRunError(t, screen, done, "resolver exploded")
}

// TestPanicInRequestGoroutineRestoresTerminal: a panic on a goroutine the UI started for a request (here
// the owner lookup's Get) stops the UI, finalizes the screen and makes Run return it.
func TestPanicInRequestGoroutineRestoresTerminal(t *testing.T) {
	screen, done := runExploding(t, "")
	// Open pods without the (exploding) resolver, then jump to the selected pod's owner.
	screen.InjectKey(tcell.KeyRune, 'p', tcell.ModNone)
	screen.InjectKey(tcell.KeyRune, 'o', tcell.ModNone)
	screen.InjectKey(tcell.KeyRune, 'd', tcell.ModNone)
	screen.InjectKey(tcell.KeyRune, 's', tcell.ModNone)
	screen.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(screenText(screen), "pods(shop)") {
		if time.Now().After(deadline) {
			t.Fatalf("pods never opened:\n%s", screenText(screen))
		}
		time.Sleep(10 * time.Millisecond)
	}
	screen.InjectKey(tcell.KeyRune, 'J', tcell.ModNone)
	waitRunError(t, screen, done, "get exploded")
}

// TestPanicInClientGoroutineRestoresTerminal: a panic on a goroutine of client-go (an informer handler, a
// reflector: they recover with utilruntime.HandleCrash, run its PanicHandlers, then crash the process)
// finalizes the screen before the process would die.
func TestPanicInClientGoroutineRestoresTerminal(t *testing.T) {
	screen, done := runExploding(t, "")
	defer func(really bool) { utilruntime.ReallyCrash = really }(utilruntime.ReallyCrash)
	utilruntime.ReallyCrash = false // the test process must survive the crash
	crashed := make(chan struct{})
	go func() {
		defer close(crashed)
		defer utilruntime.HandleCrash()
		panic("informer handler exploded")
	}()
	<-crashed
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the UI kept running after a client-go goroutine panicked")
	}
	if screen.finis.Load() == 0 {
		t.Fatal("the screen was not finalized: the terminal would stay in the UI's mode when the process dies")
	}
}
