package ui

import (
	"context"

	"kscope/cluster"
	"kscope/ui/verbs"
)

// RequestTimeout bounds the UI's one-off requests (a drill-down's get, a tree node's health), the object
// verbs' (verbs.RequestTimeout); a screen in a package of its own bounds its requests with it too.
const RequestTimeout = verbs.RequestTimeout

// request runs work off the UI goroutine within RequestTimeout, against the cluster of the moment, then
// then on the UI goroutine with its outcome, unless a context switch has replaced that cluster meanwhile.
func request[T any](a *App, work func(context.Context, cluster.Interface) (T, error), then func(T, error)) {
	cluster := a.cluster // a.cluster is the UI goroutine's (a context switch replaces it)
	a.pending.Add(1)
	a.Go(func() {
		ctx, cancel := context.WithTimeout(a.ctx, RequestTimeout)
		defer cancel()
		v, err := work(ctx, cluster)
		a.tv.QueueUpdateDraw(func() {
			defer a.pending.Add(-1)
			if a.cluster == cluster { // else answered by the previous context's server
				then(v, err)
			}
		})
	})
}
