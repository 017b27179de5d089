package changes

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"kscope/apierr"
	"kscope/changes"
	"kscope/cluster"
	"kscope/union"
)

// A feed over several clusters (`:changes @prod,@stg`, or the clusters of the table on top) is one part per
// cluster: its own connection (Feed.Connect, the session's member connections), its own change
// source and so its own ring of the latest changes.Capacity changes, so that a busy cluster never pushes a
// quiet one's changes out. Each part connects and lists on a goroutine of its own: a cluster that is slow,
// unreachable or refused never holds back or blanks the others; the status line has one word per cluster.
// The rows of all parts are merged newest first, with a CONTEXT cell first.

// part is one cluster's part of the feed: its connection and source once made, or what it is doing before
// (connecting) and why it has none (unreachable, not watched). The feed of the view's cluster alone is one
// part, its source made by New. Fields but context are guarded by mu.
type part struct {
	context string // "" in the feed of the view's cluster alone

	mu   sync.Mutex
	conn cluster.Interface
	src  cluster.ChangeSource
	word string
	err  error
}

// source returns p's connection and source; a nil source while it has none.
func (p *part) source() (cluster.Interface, cluster.ChangeSource) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conn, p.src
}

// set records how p stands, then wakes the view.
func (p *part) set(word string, err error, wake chan<- struct{}) {
	p.mu.Lock()
	p.word, p.err = word, err
	p.mu.Unlock()
	signal(wake)
}

// follow connects p (when it has no source yet), builds and starts its source of q's kinds over q's
// namespaces, then wakes the view after each of its notifications, until ctx ends.
func (p *part) follow(ctx context.Context, connect func(context.Context, string) (cluster.Interface, error), q query, wake chan<- struct{}) {
	_, src := p.source()
	if src == nil {
		if src = p.connectAndWatch(ctx, connect, q, wake); src == nil {
			return
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-src.Notify():
			signal(wake)
		}
	}
}

// connectAndWatch connects p, trying again while its cluster is unreachable, and builds and starts its
// source: nil when none could be built (said in p's word) or ctx ended.
func (p *part) connectAndWatch(ctx context.Context, connect func(context.Context, string) (cluster.Interface, error), q query, wake chan<- struct{}) cluster.ChangeSource {
	conn := union.ConnectRetrying(ctx, func(ctx context.Context) (cluster.Interface, error) { return connect(ctx, p.context) },
		func(err error) { p.set("unreachable", err, wake) })
	if conn == nil {
		return nil
	}
	kinds, err := feedKinds(conn.Catalog().Resources(), q)
	var src cluster.ChangeSource
	if err == nil {
		src, err = conn.NewChangeSource(kinds, q.namespaces)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	defer signal(wake)
	switch {
	case ctx.Err() != nil: // closed meanwhile: Close stops only the sources it finds
		return nil
	case err != nil:
		p.conn, p.word, p.err = conn, "not watched", err
		return nil
	}
	p.conn, p.src = conn, src
	src.Start(ctx)
	return src
}

// stop stops p's source, if it has one (off the UI goroutine: Stop waits for the watches).
func (p *part) stop() {
	if _, src := p.source(); src != nil {
		src.Stop()
	}
}

// status is p's word on the status line: "prod watching", "stg listing 3/40", "dev unreachable: …",
// with the kinds it skipped or that failed.
func (p *part) status() string {
	p.mu.Lock()
	src, word, err := p.src, p.word, p.err
	p.mu.Unlock()
	switch {
	case src == nil && err != nil:
		return p.context + " " + word + ": " + apierr.OneLine(err.Error())
	case src == nil:
		return p.context + " " + word
	}
	pr := src.Progress()
	out := p.context + " watching"
	if pr.Listed < pr.Total {
		out = fmt.Sprintf("%s listing %d/%d", p.context, pr.Listed, pr.Total)
	}
	if len(pr.NotVisible) > 0 {
		out += ", not visible (skipped): " + strings.Join(pr.NotVisible, ", ")
	}
	if len(pr.Failed) > 0 {
		out += ", failed: " + strings.Join(pr.Failed, "; ")
	}
	return out
}

// signal wakes the view's loop (coalesced).
func signal(wake chan<- struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}

// entry is a row of the feed: a change and the index of its cluster's part.
type entry struct {
	changes.Change
	from int
}

// merge gathers the parts' changes (lists[i] is part i's, newest first) into one list, newest first: each
// part's order kept, the parts' changes interleaved by when they were seen (at the same time: the earlier
// part's first).
func merge(lists [][]changes.Change) []entry {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	out := make([]entry, 0, n)
	next := make([]int, len(lists))
	for len(out) < n {
		best := -1
		for i, l := range lists {
			if next[i] < len(l) && (best < 0 || l[next[i]].Seen.After(lists[best][next[best]].Seen)) {
				best = i
			}
		}
		out = append(out, entry{Change: lists[best][next[best]], from: best})
		next[best]++
	}
	return out
}
