package livetable

import (
	"context"
	"time"

	"k8s.io/utils/clock"

	"kscope/discovery"
	"kscope/spawn"
	"kscope/ui/host"
	"kscope/ui/keymap"
	"kscope/ui/theme"
	"kscope/watch"
)

// Host is what a Table asks of the app that shows it, one Host per table: the app's services (goroutines, the
// UI goroutine's queue, drawing, the clock, the theme, the prompt and status lines, the cluster) and the
// app's part of the table (its keys among the table's own, what enter does, a namespace switch). Every method
// runs on the UI goroutine, but for Go, Update, Queue, SpaceRedraw, Settle and what a goroutine may read
// (Context, Clock, Timing, cluster.Interface, Spawn), which any goroutine may call.
type Host interface {
	host.Core
	AppPart
	// Spawn starts the goroutines of the sources the table makes itself (a HEALTH column over several
	// namespaces), supervised as Go's are.
	Spawn() spawn.Func
	// Queue runs fn on the UI goroutine without redrawing (fn calls Draw when it must); never call it on the
	// UI goroutine itself.
	Queue(fn func())
	// Draw redraws the screen now (from the UI goroutine, inside a queued function too).
	Draw()
	// SpaceRedraw spaces the refreshes of a live screen: off the UI goroutine, it waits until the app's
	// minimum time between redraws has passed since *last, then sets *last to now; false when ctx ends first.
	SpaceRedraw(ctx context.Context, last *time.Time) bool
	// Clock is the time the UI runs on (tests step a fake one); Timing how the table uses it.
	Clock() clock.WithTicker
	Timing() Timing
	// Theme is the UI's colors; not changed after start.
	Theme() *theme.Theme
	// Ask asks for a line of text on the prompt line, after label, beginning with initial; done receives
	// the text on Enter (esc drops it).
	Ask(label, initial string, done func(text string))
	// SaveFile writes data to a new file in the user's save folder for kind ("tables") and returns its path.
	SaveFile(kind, name string, data []byte) (path string, err error)
	// Settle tells the app that the work of opening something big is done (a table's first list, a pods
	// table's requests and limits), so that it may free memory. Never on the UI goroutine.
	Settle()
}

// Timing is how a table paces itself: the ticks that age its rows (0: none), how long changed rows flash and
// deleted rows stay dimmed.
type Timing struct {
	Tick, FlashFor, GhostFor time.Duration
}

// AppPart is the app's part of a table: its keys among the table's own, what enter does, the status line's
// end, a namespace switch. UI goroutine only.
type AppPart interface {
	// OnTop tells whether the table is the screen on top (it draws only then).
	OnTop() bool
	// ShowStatus shows the table's Status on the status line, if the table is on top; StatusText is the
	// status line's text as shown.
	ShowStatus()
	StatusText() string
	// StatusNote is the app's end of the table's status ("" for none: the keys the server refuses here).
	StatusNote() string
	// Bindings are the table's keys in full, in the order the help lists them: the table's own
	// (Table.FilterBinding, OpenBinding, ViewBindings, ColumnBindings) among the app's.
	Bindings() []keymap.Binding
	// Open is enter (or a double click) on a live row, of res (the row's own kind in a table of several).
	Open(res discovery.Resource, row *watch.Row)
	// NamespaceChanged is the app's part of a namespace switch; true when it took care of the table (the
	// namespaces table gives way to the view below it), else the table reopens in ns if it follows switches.
	NamespaceChanged(ns string) bool
}
