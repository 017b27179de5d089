package navtest

import (
	"context"
	"fmt"
	"sync"
	"time"

	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"

	"kscope/cluster"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/theme"
)

// Nav is a ui.Navigator that records. Update runs its function under the lock UI takes, so a test reading a
// screen with UI never races the screen's goroutines; the other methods are called, as in the app, on the
// test's "UI goroutine" (the test itself, or a function run by UI or Update). Safe for any goroutine.
type Nav struct {
	mu      sync.Mutex // the UI goroutine
	wg      sync.WaitGroup
	ctx     context.Context
	cancel  context.CancelFunc
	clock   clock.WithTicker
	cluster cluster.Interface
	theme   *theme.Theme
	width   int

	rec sync.Mutex // guards what follows
	// Pushed are the screens pushed, in order; Messages and Errors what was said on the prompt line.
	pushed           []ui.Screen
	messages, errors []string
	ticking          []ui.Screen
	dialogs          dialogs // what Ask, Choose, CopyToClipboard and SaveFile were given (dialogs.go)
	confirms         []Confirmation
	settles          int // Settle calls
}

// Confirmation is a question a screen asked (Confirm): Do is what the action would run.
type Confirmation struct {
	Question, Action string
	Do               func()
}

// New returns a Nav over c (may be nil), on a fake clock at 2026-01-01 12:00 UTC, 120 cells wide, with kscope's own theme. Its
// context ends, and its goroutines are waited for, when the test ends.
func New(t interface{ Cleanup(func()) }, c cluster.Interface) *Nav {
	ctx, cancel := context.WithCancel(context.Background())
	n := &Nav{ctx: ctx, cancel: cancel, clock: clocktesting.NewFakeClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)),
		cluster: c, theme: theme.Default(), width: 120}
	t.Cleanup(func() { cancel(); n.wg.Wait() })
	return n
}

// UI runs fn as the UI goroutine would: never at the same time as an Update.
func (n *Nav) UI(fn func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	fn()
}

// Wait waits for the goroutines started with Go.
func (n *Nav) Wait() { n.wg.Wait() }

// HelpBinding implements ui.Navigator: `?`, doing nothing.
func (n *Nav) HelpBinding() keymap.Binding { return keymap.Keys.Views.Help.Bind(func() {}) }

// QuitBinding implements ui.Navigator: `q`, doing nothing.
func (n *Nav) QuitBinding() keymap.Binding { return keymap.Keys.Views.Quit.Bind(func() {}) }

// EveryTickWhileOnTop implements ui.Navigator: it records s (Ticking) and never ticks; a test calls the
// screen's refresh itself.
func (n *Nav) EveryTickWhileOnTop(s ui.Screen, _ func()) context.CancelFunc {
	n.rec.Lock()
	defer n.rec.Unlock()
	n.ticking = append(n.ticking, s)
	return func() {}
}

// Push implements ui.Navigator: it records s and activates it, as the app does.
func (n *Nav) Push(s ui.Screen) {
	n.rec.Lock()
	n.pushed = append(n.pushed, s)
	n.rec.Unlock()
	s.Activate()
}

// UpdateStatus implements ui.Navigator: nothing to show.
func (n *Nav) UpdateStatus(ui.Screen) {}

// Message implements ui.Navigator: it records text.
func (n *Nav) Message(text string) {
	n.rec.Lock()
	defer n.rec.Unlock()
	n.messages = append(n.messages, text)
}

// Errorf implements ui.Navigator: it records the error's text.
func (n *Nav) Errorf(format string, args ...any) {
	n.rec.Lock()
	defer n.rec.Unlock()
	n.errors = append(n.errors, fmt.Sprintf(format, args...))
}

// Confirm implements ui.Navigator: it records the question; the test answers by calling its Do (the action) or
// not (Cancel).
func (n *Nav) Confirm(question, action string, do func()) {
	n.rec.Lock()
	defer n.rec.Unlock()
	n.confirms = append(n.confirms, Confirmation{Question: question, Action: action, Do: do})
}

// Confirmations returns the questions asked so far, in order.
func (n *Nav) Confirmations() []Confirmation {
	n.rec.Lock()
	defer n.rec.Unlock()
	return append([]Confirmation(nil), n.confirms...)
}

// Go implements ui.Navigator: fn runs on a goroutine of its own, waited for by Wait and at the test's end.
func (n *Nav) Go(fn func()) {
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		fn()
	}()
}

// Settle is the app's optional Settle (ui.App.Settle): it counts the calls (Settles).
func (n *Nav) Settle() {
	n.rec.Lock()
	defer n.rec.Unlock()
	n.settles++
}

// Settles is how many times Settle was called.
func (n *Nav) Settles() int {
	n.rec.Lock()
	defer n.rec.Unlock()
	return n.settles
}

// Update implements ui.Navigator: fn runs under the UI lock.
func (n *Nav) Update(fn func()) { n.UI(fn) }

// Context implements ui.Navigator: done when the test ends.
func (n *Nav) Context() context.Context { return n.ctx }

// SpaceRedraw implements ui.Navigator: no wait (the tests space no redraws); false once ctx has ended.
func (n *Nav) SpaceRedraw(ctx context.Context, last *time.Time) bool {
	if ctx.Err() != nil {
		return false
	}
	*last = n.clock.Now()
	return true
}

// Theme implements ui.Navigator: kscope's own colors.
func (n *Nav) Theme() *theme.Theme { return n.theme }

// Clock implements ui.Navigator; FakeClock is the same clock, to step.
func (n *Nav) Clock() clock.WithTicker { return n.clock }

// FakeClock is the clock the screens run on.
func (n *Nav) FakeClock() *clocktesting.FakeClock { return n.clock.(*clocktesting.FakeClock) }

// Width implements ui.Navigator: 120 cells.
func (n *Nav) Width() int { return n.width }

// Cluster implements ui.Navigator: the cluster New was given.
func (n *Nav) Cluster() cluster.Interface { return n.cluster }

// Pushed returns the screens pushed so far, in order.
func (n *Nav) Pushed() []ui.Screen {
	n.rec.Lock()
	defer n.rec.Unlock()
	return append([]ui.Screen(nil), n.pushed...)
}

// Messages returns the notes said so far; Errors the errors.
func (n *Nav) Messages() []string {
	n.rec.Lock()
	defer n.rec.Unlock()
	return append([]string(nil), n.messages...)
}

// Errors returns the errors said so far.
func (n *Nav) Errors() []string {
	n.rec.Lock()
	defer n.rec.Unlock()
	return append([]string(nil), n.errors...)
}

// Ticking returns the screens that asked for a tick, in order.
func (n *Nav) Ticking() []ui.Screen {
	n.rec.Lock()
	defer n.rec.Unlock()
	return append([]ui.Screen(nil), n.ticking...)
}

var _ ui.Navigator = (*Nav)(nil)
