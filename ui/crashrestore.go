package ui

import (
	"context"
	"runtime/debug"
	"sync/atomic"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// finalizeOnClientCrash gives the terminal back when a goroutine of client-go (an informer's handler, a
// reflector) panics: client-go runs utilruntime.PanicHandlers before it lets the panic end the process, and
// a process that dies with the screen in the UI's mode leaves the user's terminal unusable. The returned
// function disables the handler (client-go's list of handlers has no removal; a disabled one stays, inert).
// Call it from Run, before the UI starts.
func (a *App) finalizeOnClientCrash() (disable func()) {
	var active atomic.Bool
	active.Store(true)
	utilruntime.PanicHandlers = append(utilruntime.PanicHandlers, func(_ context.Context, p any) {
		if active.Load() {
			a.sup.Fail(&PanicError{Value: p, Stack: debug.Stack()}) // what Run returns, if the process lives
			a.Stop()                                                // at once: the process may end next
		}
	})
	return func() { active.Store(false) }
}
