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
// first), and returns them all oldest first: a change whose version is a full one is left out (the full
// version names its writer); one whose version is a row version is told on that entry (Feed: who wrote, which
// fields, beside the cells); the others are entries of their own.
func WithFeed(entries []Entry, feed []FeedChange) []Entry {
	out := append([]Entry(nil), entries...)
	at := map[string]int{}
	for i, e := range out {
		if e.RV != "" {
			at[e.RV] = i
		}
	}
	for i := range feed {
		if j, ok := at[feed[i].RV]; ok && feed[i].RV != "" {
			if out[j].Obj == nil {
				out[j].Feed = &feed[i]
			}
			continue
		}
		out = append(out, Entry{Seen: feed[i].Seen, RV: feed[i].RV, Feed: &feed[i]})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Seen.Before(out[j].Seen) })
	return out
}

// feedSummary is the history view's line for e, a change the feed saw: the op and the writer's fields, and
// the cells that changed when e is also a row version.
func feedSummary(e Entry, width int) string {
	s := e.Feed.Op
	if e.Feed.Fields != "" {
		s += ": " + e.Feed.Fields
	}
	if e.Row == nil {
		return s + " (change feed; no version kept)"
	}
	if cells := e.Changes(); len(cells) > 0 {
		return s + " · cells: " + Summarize(cells, max(width-len(s)-10, 20))
	}
	return s
}
