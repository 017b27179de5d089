package history

import (
	"sort"
	"time"
)

// FeedChange is one change of an object that the live feed of changes saw (package changes): no object is
// kept, only when, the resourceVersion after it, what happened and who did it. A plain value.
type FeedChange struct {
	Seen time.Time
	RV   string
	// Op is "created", "updated" or "deleted".
	Op string
	// Manager (with its subresource) and Operation are the managedFields entry that made it ("" unknown),
	// Sure false when another entry was as new; Fields the top-level fields of that entry.
	Manager, Operation string
	Sure               bool
	Fields             string
}

// WithFeed adds to entries (oldest first, from Entries) the feed's changes of the same object (oldest
// first) whose resourceVersion no entry has, and returns them all oldest first.
func WithFeed(entries []Entry, feed []FeedChange) []Entry {
	have := map[string]bool{}
	for _, e := range entries {
		if e.RV != "" {
			have[e.RV] = true
		}
	}
	out := append([]Entry(nil), entries...)
	for i := range feed {
		if feed[i].RV != "" && have[feed[i].RV] {
			continue
		}
		out = append(out, Entry{Seen: feed[i].Seen, RV: feed[i].RV, Feed: &feed[i]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Seen.Before(out[j].Seen) })
	return out
}

// feedSummary is the history view's line for a change the feed saw.
func feedSummary(c *FeedChange) string {
	s := c.Op
	if c.Fields != "" {
		s += ": " + c.Fields
	}
	return s + " (change feed; no version kept)"
}
