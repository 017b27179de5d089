package host

import (
	"context"

	"kscope/cluster"
)

// Core is what every part of the app asks of it alike. The hosts of ui's parts (livetable.Host, verbs.Host,
// plugins.Host, drill.Host) and the screens' ui.Navigator embed it instead of declaring it again; the app
// implements it once per cluster it shows. Context, Go, Update and Cluster may be called from any goroutine;
// Message and Errorf on the UI goroutine only.
type Core interface {
	// Context is done when the app quits; a goroutine started with Go ends by then.
	Context() context.Context
	// Go runs fn on a goroutine of its own, supervised: a panic there stops the UI and restores the terminal.
	Go(fn func())
	// Update runs fn on the UI goroutine, then redraws, and returns once fn has run: never call it on the UI
	// goroutine itself.
	Update(fn func())
	// Message shows a one-line note on the prompt line; Errorf shows an error there (red).
	Message(text string)
	Errorf(format string, args ...any)
	// Cluster is the connection the part works on: the view's cluster (a context switch replaces it).
	Cluster() cluster.Interface
}
