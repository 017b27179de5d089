package verbs

import (
	"context"
	"time"

	"kscope/cluster"
)

// RequestTimeout bounds the verbs' one-off requests (a read before a write, the write, an access question).
const RequestTimeout = 15 * time.Second

// request runs work off the UI goroutine within RequestTimeout, against the cluster of the moment, then
// then on the UI goroutine with its outcome, unless a context switch has replaced that cluster meanwhile.
func request[T any](v *Verbs, work func(context.Context, cluster.Interface) (T, error), then func(T, error)) {
	conn := v.Cluster() // the UI goroutine's (a context switch replaces it)
	v.Pending(1)
	v.Go(func() {
		ctx, cancel := context.WithTimeout(v.Context(), RequestTimeout)
		defer cancel()
		res, err := work(ctx, conn)
		v.Update(func() {
			defer v.Pending(-1)
			if v.Cluster() == conn { // else answered by the previous context's server
				then(res, err)
			}
		})
	})
}
