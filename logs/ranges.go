package logs

import (
	"fmt"
	"time"

	"kscope/cluster"
)

// Range is how much of a container's log a view reads first, before the lines that come after: its last
// lines (the default, kubectl logs --tail), those of the last Since (--since), or everything (All). A plain
// value; the zero Range is the last lines, Range{All: true} the whole log.
type Range struct {
	// Since > 0 reads the lines of that last span of time, by the node's clock (sinceSeconds).
	Since time.Duration
	// All reads the whole log (neither tailLines nor sinceSeconds).
	All bool
}

// RangeSince is the lines of the last d.
func RangeSince(d time.Duration) Range { return Range{Since: d} }

// Apply sets what req reads first: tail lines (tail is the view's count of last lines), the seconds of
// Since (rounded up to a whole second), or everything.
func (r Range) Apply(req *cluster.LogRequest, tail int64) {
	req.TailLines, req.SinceSeconds, req.Since = 0, 0, time.Time{}
	switch {
	case r.All:
	case r.Since > 0:
		req.SinceSeconds = int64((r.Since + time.Second - 1) / time.Second)
	default:
		req.TailLines = tail
	}
}

// Label says the range as the view's status does: "tail 200", "since 5m", "since 1h30m", "all".
func (r Range) Label(tail int64) string {
	switch {
	case r.All:
		return "all"
	case r.Since > 0:
		s := r.Since.Round(time.Second).String()
		s = trimZeroUnits(s)
		return "since " + s
	default:
		return fmt.Sprintf("tail %d", tail)
	}
}

// trimZeroUnits drops the zero units time.Duration.String writes after the first: "5m0s" → "5m",
// "1h0m0s" → "1h", "1h30m0s" → "1h30m".
func trimZeroUnits(s string) string {
	for _, z := range []string{"0s", "0m"} {
		if len(s) > len(z) && s[len(s)-len(z):] == z && s[len(s)-len(z)-1] >= 'a' {
			s = s[:len(s)-len(z)]
		}
	}
	return s
}
