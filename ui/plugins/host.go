package plugins

import (
	"kscope/ui/host"
)

// Host is what the plugins ask of the app: its services (goroutines, the UI goroutine's queue, the prompt
// line and its notices, dialogs, the connection), the terminal it suspends for a plugin in the
// foreground, the environment of its children and what read-only mode refused them. ui's App implements it
// (ui/pluginhost.go). Every method runs on the UI goroutine, except Go, Update, Context, ChildEnv,
// RefusalMark and RefusedSince, which any goroutine may call.
type Host interface {
	host.Core // the cluster of the moment (nil before the first); a background plugin is killed when Context ends
	host.Prompts
	// Notice says line on the prompt line once the UI runs (a configuration line that cannot be used).
	Notice(line string)
	// FlushNotices shows the notices on their way now, so that a line shown after comes after them.
	FlushNotices()

	// ReadOnly tells whether the user asked for no writes at all (a dangerous plugin is refused).
	ReadOnly() bool
	// Kubeconfig is the kubeconfig children get ("" for kscope's own environment's).
	Kubeconfig() string
	// Suspend gives the terminal to fn and takes it back when fn returns; false when there is no screen to
	// suspend (tests).
	Suspend(fn func()) bool
	// ChildEnv is the environment of a process kscope starts: its own, the children's kubeconfig, vars.
	ChildEnv(vars map[string]string) []string
	// RefusalMark is the count of the children's writes read-only mode refused so far; RefusedSince the
	// last one refused after mark ("" when none).
	RefusalMark() int
	RefusedSince(mark int) string
}
