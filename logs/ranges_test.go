package logs

import (
	"testing"
	"time"

	"kscope/cluster"
)

func TestRanges(t *testing.T) {
	for _, tc := range []struct {
		r            Range
		label        string
		tail, since  int64
		fromReqSince bool
	}{
		{r: Range{}, label: "tail 200", tail: 200},
		{r: Range{All: true}, label: "all"},
		{r: RangeSince(time.Minute), label: "since 1m", since: 60},
		{r: RangeSince(5 * time.Minute), label: "since 5m", since: 300},
		{r: RangeSince(15 * time.Minute), label: "since 15m", since: 900},
		{r: RangeSince(30 * time.Minute), label: "since 30m", since: 1800},
		{r: RangeSince(time.Hour), label: "since 1h", since: 3600},
		{r: RangeSince(90 * time.Minute), label: "since 1h30m", since: 5400},
		{r: RangeSince(1500 * time.Millisecond), label: "since 2s", since: 2}, // rounded up
		{r: RangeSince(10 * time.Second), label: "since 10s", since: 10},
	} {
		// a request that a reconnect had changed: Apply starts afresh
		req := cluster.LogRequest{Pod: "p", Follow: true, TailLines: 7, SinceSeconds: 9, Since: time.Now()}
		tc.r.Apply(&req, 200)
		if req.TailLines != tc.tail || req.SinceSeconds != tc.since || !req.Since.IsZero() || req.Pod != "p" || !req.Follow {
			t.Errorf("%s: request %+v, want tail %d, sinceSeconds %d, no since time, the rest kept", tc.label, req, tc.tail, tc.since)
		}
		if got := tc.r.Label(200); got != tc.label {
			t.Errorf("label %q, want %q", got, tc.label)
		}
	}
}
