package ui

import (
	"context"
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
	utilruntime.PanicHandlers = append(utilruntime.PanicHandlers, func(context.Context, any) {
		if active.Load() {
			a.tv.Stop()
		}
	})
	return func() { active.Store(false) }
}
