package union

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"kscope/cluster"
)

// TestConnectRetrying: each failure is told, then the next try waits 1 s, doubling up to 30 s; the
// connection is returned once made; the retrying stops, with no connection and no further try, when ctx ends
// (before the first try, or during a wait).
func TestConnectRetrying(t *testing.T) {
	s := time.Second
	tests := []struct {
		name      string
		failures  int // tries that fail before one connects
		cancelAt  int // the wait during which ctx ends (1 = the first); 0: never, -1: before the first try
		wantTries int
		wantWaits []time.Duration
		wantConn  bool
	}{
		{name: "connects at once", wantTries: 1, wantConn: true},
		{name: "after three failures", failures: 3, wantTries: 4, wantWaits: []time.Duration{s, 2 * s, 4 * s}, wantConn: true},
		{name: "the wait doubles up to 30 s", failures: 8, wantTries: 9,
			wantWaits: []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s, 30 * s, 30 * s, 30 * s}, wantConn: true},
		{name: "ctx ends during a wait", failures: 3, cancelAt: 2, wantTries: 2, wantWaits: []time.Duration{s, 2 * s}},
		{name: "ctx ended before", failures: 3, cancelAt: -1, wantTries: 1, wantWaits: []time.Duration{s}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelAt < 0 {
				cancel()
			}
			conn := stubCluster{name: "prod"}
			tries := 0
			connect := func(context.Context) (cluster.Interface, error) {
				tries++
				if tries <= tt.failures {
					return nil, fmt.Errorf("try %d: connection refused", tries)
				}
				return conn, nil
			}
			var told []string
			failed := func(err error) { told = append(told, err.Error()) }
			var waits []time.Duration
			after := func(d time.Duration) <-chan time.Time {
				waits = append(waits, d)
				if len(waits) == tt.cancelAt {
					cancel()
				}
				if ctx.Err() != nil {
					// Fires only if the retrying did not stop when ctx ended (its next try then connects).
					return time.After(time.Second)
				}
				fired := make(chan time.Time, 1)
				fired <- time.Time{}
				return fired
			}
			got := connectRetrying(ctx, connect, failed, after)
			if (got != nil) != tt.wantConn || tries != tt.wantTries || !slices.Equal(waits, tt.wantWaits) {
				t.Errorf("connection %v after %d tries, waits %v; want connected %v after %d tries, waits %v",
					got, tries, waits, tt.wantConn, tt.wantTries, tt.wantWaits)
			}
			if len(told) != min(tries, tt.failures) || (len(told) > 0 && told[0] != "try 1: connection refused") {
				t.Errorf("failures told: %q, want one per failed try", told)
			}
		})
	}
}

// TestConnectRetryingStopsAtOnce: ConnectRetrying, on the real clock, returns as soon as ctx ends during its
// first wait (1 s), with no second try.
func TestConnectRetryingStopsAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tries := 0
	begun := time.Now()
	got := ConnectRetrying(ctx, func(context.Context) (cluster.Interface, error) {
		tries++
		if tries > 1 { // (a second try, which must not come, connects)
			return stubCluster{name: "prod"}, nil
		}
		return nil, errors.New("connection refused")
	}, func(error) { cancel() })
	if got != nil || tries != 1 || time.Since(begun) >= time.Second {
		t.Errorf("connection %v after %d tries and %v; want none after one try, at once", got, tries, time.Since(begun))
	}
}
