package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	clocktesting "k8s.io/utils/clock/testing"

	"kscope/discovery"
)

// fuzzApp is one App on a simulation screen over the fixture cluster, shared by every input of a fuzz
// target (starting a UI per input would be slow). Each input starts from the resource picker in "shop".
type fuzzApp struct {
	app  *App
	done chan error
	// drawn receives after the draw that follows a start's steps; pending (UI goroutine) marks that draw.
	drawn   chan struct{}
	pending bool
}

func startFuzzApp(f *testing.F) *fuzzApp {
	a := &fuzzApp{done: make(chan error, 1), drawn: make(chan struct{}, 1)}
	a.app = New(Options{Cluster: fixtureCluster(), Version: "v0.1.0", Clock: clocktesting.NewFakeClock(t0),
		Tick: -1, MinRedraw: -1, Edit: unchangedEditor})
	screen := tcell.NewSimulationScreen("UTF-8")
	a.app.SetScreen(screen)
	screen.SetSize(48, 12) // a draw costs per cell: a small screen keeps one draw per input cheap
	a.app.tv.SetAfterDrawFunc(func(tcell.Screen) {
		if a.pending {
			a.pending = false
			a.drawn <- struct{}{}
		}
	})
	go func() { a.done <- a.app.Run() }()
	// Wait until Run is in its event loop: Run registers a client-go panic handler (a global list), so
	// the apps of one target start one after the other.
	a.runOnce(f, func(*App) {})
	f.Cleanup(func() {
		a.app.Stop()
		select {
		case <-a.done:
		case <-time.After(5 * time.Second):
		}
	})
	return a
}

// reset goes back to the picker in namespace shop with an empty prompt. UI goroutine.
func (a *fuzzApp) reset() {
	if a.app.bar.Active() {
		a.app.bar.Close()
	}
	if a.app.modal != nil {
		a.app.closeModal()
	}
	a.app.popTo(1)
	a.app.namespace = "shop"
	a.app.stack[0].Escape() // (the picker's: clears its filter)
	a.app.show()
	a.app.bar.ClearMessage()
}

// submit pastes text into the open prompt (verbatim: typing could not give every character) and presses
// Enter, both delivered through the app's root primitive as tview delivers them. UI goroutine.
func (a *fuzzApp) submit(text string) {
	if !a.app.bar.Active() {
		return
	}
	setFocus := func(p tview.Primitive) { a.app.tv.SetFocus(p) }
	a.app.root.PasteHandler()(text, setFocus)
	if ev := a.app.capture(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)); ev != nil {
		a.app.root.InputHandler()(ev, setFocus)
	}
}

// problem says what is wrong with the UI after an input: no view left, or a prompt message of several
// lines; "" when it is well. UI goroutine.
func (a *fuzzApp) problem() string {
	if a.app.top() == nil {
		return "no view left"
	}
	if msg := a.app.bar.ShownMessage(); strings.Contains(strings.TrimSuffix(msg, "\n"), "\n") {
		return "the prompt message spans lines: " + msg
	}
	return ""
}

// check runs steps on the UI goroutine, then the problem check, then draws the screen they left, in one
// round trip, and fails t with the first problem an input left (a panic in the draw stops the UI: Run's
// error).
func (a *fuzzApp) check(t *testing.T, input string, steps func() string) {
	t.Helper()
	if problem := a.start(steps); a.wait() != nil || problem() != "" {
		t.Fatalf("input %q: %s", input, a.outcome(problem()))
	}
}

// start queues steps and the problem check with a draw after them; problem returns what they found, once
// wait has returned.
func (a *fuzzApp) start(steps func() string) (problem func() string) {
	var found string
	a.app.tv.QueueUpdateDraw(func() {
		if found = steps(); found == "" {
			found = a.problem()
		}
		a.pending = true
	})
	return func() string { return found }
}

// wait waits for the draw after a start; it returns the UI's error if it stopped.
func (a *fuzzApp) wait() error {
	select {
	case <-a.drawn:
		return nil
	case err := <-a.done:
		a.done <- err // later waits see it too
		if err == nil {
			err = errUIStopped
		}
		return err
	case <-time.After(10 * time.Second):
		return errNoAnswer
	}
}

var (
	errUIStopped = errors.New("the UI stopped")
	errNoAnswer  = errors.New("the UI goroutine did not answer")
)

// outcome words what went wrong: the UI's error, else the problem found.
func (a *fuzzApp) outcome(problem string) string {
	select {
	case err := <-a.done:
		a.done <- err
		return fmt.Sprintf("the UI stopped: %v", err)
	default:
	}
	return problem
}

// isQuit tells whether the command bar would quit on text (the fuzz app must stay up).
func isQuit(text string) bool {
	f := strings.Fields(text)
	return len(f) > 0 && (f[0] == "q" || f[0] == "quit" || f[0] == "q!")
}

// FuzzCommandBar: whatever is typed after `:` (resources, ns, ctx, garbage, control characters), Tab
// completion and Enter neither panic nor leave the UI without a view, and any message is one line.
// Up to three commands separated by newlines run in a row.
func FuzzCommandBar(f *testing.F) {
	for _, s := range []string{
		"pods", "deploy", "po", "widgets.shop.example.com", "deployments.v1.apps", "deploymnts", "tokenreviews",
		"ns", "ns data", "ns no-such-namespace", "ns \x1b[31m", "ctx", "ctx viewer", "ctx nosuch", "help",
		"pods extra words", "", "   ", "[red]pods[-]", "pods\nns data", "ns\nns", "pods\nhelp\nsecrets",
		":", "::", "\x00", "p\to", "événements", strings.Repeat("x", 300),
		"deploy,rs,po", "all", "deploy,", ",", ",,", "deploy,podz", "deploy,po shop,data", "deploy,ns shop", "po,po",
		"deploy,tokenreviews", "deploy,re", "deploy, rs ,",
	} {
		f.Add(s)
	}
	a := startFuzzApp(f)
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.SplitN(text, "\n", 4)
		a.check(t, text, func() string {
			a.reset()
			for _, line := range lines[:min(len(lines), 3)] {
				if isQuit(line) {
					continue
				}
				a.app.completeCommand(line)
				a.app.openCommandBar()
				a.submit(line)
				if p := a.problem(); p != "" {
					return p
				}
			}
			return ""
		})
	})
}

// FuzzFilterBar: whatever is typed after `/` in a table (regex or -l selector), the picker or a YAML view
// is applied or refused with a one-line message; nothing panics. Each view stays open in an app of its own
// for the whole run (only the filter changes between inputs), so that the target runs fast enough to fuzz.
// The whole app bounds its speed (hundreds a second): the bar's own logic is fuzzed, thousands of inputs a
// second, by the targets in ui/prompt.
func FuzzFilterBar(f *testing.F) {
	for _, s := range []string{
		"web", "WEB-7F", "^web$", "run+ing|pending", "-l app=web", "-l app in (", "-l !app", "-l ", "[", "web(",
		"(?i", "\\", "a{1000}", "[red]", "\x1b", "", "   ", "ß", "\u212a", strings.Repeat("(", 200),
	} {
		f.Add(s)
	}
	pods := discovery.Resource{Version: "v1", Name: "pods"}
	apps := []*fuzzApp{
		startFuzzApp(f), // the picker's filter
		startFuzzApp(f), // a table's row filter
		startFuzzApp(f), // the YAML view's search (of data/db-0)
	}
	apps[1].runOnce(f, func(a *App) { a.openResource(a.catalogEntry(pods), "") })
	apps[2].runOnce(f, func(a *App) {
		a.openResource(a.catalogEntry(pods), "")
		a.setNamespace("data")
		a.runBinding("yaml")
	})
	f.Fuzz(func(t *testing.T, text string) {
		problems := make([]func() string, len(apps))
		for i, a := range apps { // the three apps at once, each on its UI goroutine
			problems[i] = a.start(func() string {
				a.app.top().Escape() // the previous input's filter or search
				a.app.bar.ClearMessage()
				a.app.runBinding("filter", "search")
				a.submit(text)
				return ""
			})
		}
		for i, a := range apps {
			if a.wait() != nil || problems[i]() != "" {
				t.Fatalf("input %q: %s", text, a.outcome(problems[i]()))
			}
		}
	})
}

// runOnce runs open on the UI goroutine before the fuzzing starts (to open the view an app is fuzzed in).
func (a *fuzzApp) runOnce(f *testing.F, open func(*App)) {
	answered := make(chan struct{})
	a.app.tv.QueueUpdateDraw(func() { open(a.app); close(answered) })
	select {
	case <-answered:
	case <-time.After(10 * time.Second):
		f.Fatal("the UI goroutine did not answer")
	}
}
