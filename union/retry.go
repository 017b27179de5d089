package union

import (
	"context"
	"time"

	"kscope/cluster"
)

// The waits between two tries to connect to an unreachable cluster: the first, doubled after each try up to
// the last.
const (
	firstRetryWait = time.Second
	lastRetryWait  = 30 * time.Second
)

// ConnectRetrying connects with connect, trying again while it fails: failed is told each error (the
// caller's "unreachable"), then the next try waits 1 s, doubling after each try up to 30 s. It returns the
// connection, or nil once ctx has ended. It blocks: call it on a goroutine of its own (a table's cluster's,
// a feed's part's).
func ConnectRetrying(ctx context.Context, connect func(context.Context) (cluster.Interface, error), failed func(error)) cluster.Interface {
	return connectRetrying(ctx, connect, failed, time.After)
}

// connectRetrying is ConnectRetrying, waiting on after (time.After; the tests' own clock).
func connectRetrying(ctx context.Context, connect func(context.Context) (cluster.Interface, error), failed func(error), after func(time.Duration) <-chan time.Time) cluster.Interface {
	wait := firstRetryWait
	for {
		c, err := connect(ctx)
		if err == nil {
			return c
		}
		failed(err)
		select {
		case <-ctx.Done():
			return nil
		case <-after(wait):
		}
		wait = min(2*wait, lastRetryWait)
	}
}
