package helm

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"kscope/cluster"
	"kscope/spawn"
	"kscope/watch"
)

// Decoders is how many revisions a Source decodes at once (each one GET of a stored revision).
const Decoders = 8

// SourceMaker builds live rows (cluster.Sources's NewSource).
type SourceMaker interface {
	NewSource(spec watch.Spec) (cluster.RowSource, error)
}

// Source is the live table of Helm releases in a namespace (or all): one row per release, its latest
// revision, read from the labels of the objects Helm stores revisions in (a live source of Secrets and one
// of ConfigMaps, both selected by Helm's owner label), so that the rows show as soon as those lists do. CHART
// and APP VERSION, which only the payload holds, are filled in behind: each release's latest revision is
// decoded once (Decoders at a time), and again only when that revision's object changes. The rows, their
// orders and filters are a watch.StaticSource's, fed by one goroutine. It implements cluster.RowSource and
// Settler; all methods are safe for concurrent use.
type Source struct {
	*watch.StaticSource
	get   Getter
	parts []part

	mu      sync.Mutex
	revs    [][]Revision            // each part's revisions as last read
	decoded map[string]decodedEntry // by the stored object (Revision.Stored)
	queue   []string                // the keys of the releases waiting for a decoder, in order
	pending map[string]Revision     // the revision each waits with: its latest as last seen
	reading map[string]bool         // the stored objects being decoded (Revision.Stored)
	latest  map[string]Revision     // each release's latest revision as take last put it, by key
	read    []string                // the keys of the releases read since the rows were last put
	failed  map[string]bool         // the keys of the releases whose latest revision could not be decoded
	wake    chan struct{}           // a decoder has work (cap 1)
	done    chan struct{}           // a decoder finished one (cap 1)
}

// part is the live source of one driver's objects.
type part struct {
	driver Driver
	src    cluster.RowSource
}

// decodedEntry is a revision's summary as decoded from its object at version (Revision.Version), or why it
// could not be.
type decodedEntry struct {
	version string
	sum     Summary
	err     error
}

// NewSource builds (does not start) the releases of namespace ("" = all) from the live sources sources makes,
// decoding through get. start starts its goroutines (the app's supervisor's).
func NewSource(start spawn.Func, sources SourceMaker, get Getter, namespace string) (*Source, error) {
	spec := watch.Spec{GVR: Resource.GVR(), Namespaced: true, Namespace: namespace, Go: start}
	s := &Source{get: get, decoded: map[string]decodedEntry{}, pending: map[string]Revision{}, reading: map[string]bool{},
		latest: map[string]Revision{}, failed: map[string]bool{},
		wake: make(chan struct{}, 1), done: make(chan struct{}, 1)}
	s.StaticSource = watch.NewFedSource(spec, Columns(namespace == ""), watch.Hooks{Go: start, Run: s.run, Release: s.stopParts})
	for _, d := range []Driver{Secrets, ConfigMaps} {
		src, err := sources.NewSource(watch.Spec{GVR: d.GVR(), Namespaced: true, Namespace: namespace,
			LabelSelector: OwnerSelector, Go: start})
		if err != nil {
			return nil, fmt.Errorf("helm releases: %w", err)
		}
		s.parts = append(s.parts, part{driver: d, src: src})
		s.revs = append(s.revs, nil)
	}
	s.StaticSource.SetState(watch.State{Phase: watch.Listing})
	return s, nil
}

// Revisions returns the revisions of the release key ("namespace/name") as last read, oldest first.
func (s *Source) Revisions(key string) []Revision {
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []Revision
	for _, revs := range s.revs {
		all = append(all, revs...)
	}
	return History(all, key)
}

// Getter is what the source decodes revisions through: the views of one revision read theirs with it.
func (s *Source) Getter() Getter { return s.get }

// run starts the drivers' sources, the goroutine that feeds the rows and the decoders (Hooks.Run).
func (s *Source) run(ctx context.Context, spawn func(func())) {
	for _, p := range s.parts {
		p.src.Start(ctx)
	}
	spawn(func() { s.feed(ctx) })
	for range Decoders {
		spawn(func() { s.decode(ctx) })
	}
}

// stopParts stops the drivers' sources once the goroutines have returned (Hooks.Release).
func (s *Source) stopParts() {
	for _, p := range s.parts {
		p.src.Stop()
	}
}

// feed follows the drivers' sources and the decoders until ctx ends, putting the rows anew after each.
func (s *Source) feed(ctx context.Context) {
	s.take()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.parts[0].src.Notify():
		case <-s.parts[1].src.Notify():
		case <-s.done:
			s.takeRead()
			continue
		}
		s.take()
	}
}

// takeRead puts the rows of the releases read since the rows were last put: the lists are not read again
// (a thousand releases' charts would each re-read every revision).
func (s *Source) takeRead() {
	s.mu.Lock()
	keys := s.read
	s.read = nil
	rows := make([]*watch.Row, 0, len(keys))
	for _, k := range keys {
		if rev, ok := s.latest[k]; ok { // (else gone meanwhile)
			rows = append(rows, s.rowLocked(rev))
		}
	}
	failed := len(s.failed)
	s.mu.Unlock()
	states := make([]watch.State, len(s.parts))
	for i, p := range s.parts {
		states[i] = p.src.State()
	}
	s.Put(rows...)
	s.SetState(releasesState(s.parts, states, failed))
}

// take reads every driver's revisions and state, puts the latest revision of each release and deletes the
// releases gone, and queues the revisions whose summary is missing or stale.
func (s *Source) take() {
	states := make([]watch.State, len(s.parts))
	var all []Revision
	s.mu.Lock()
	for i, p := range s.parts {
		p.src.Changes() // the whole list is read again below
		states[i] = p.src.State()
		var revs []Revision
		for _, row := range p.src.Snapshot(watch.Query{SortColumn: -1}).Rows {
			if rev, ok := ParseRevision(p.driver, row); ok {
				revs = append(revs, rev)
			}
		}
		s.revs[i] = revs
		all = append(all, revs...)
	}
	latest := Latest(all)
	rows := make([]*watch.Row, 0, len(latest))
	shown := s.latest // the releases put last
	s.latest = make(map[string]Revision, len(latest))
	s.read = nil
	clear(s.failed)
	for _, rev := range latest {
		s.latest[rev.Key()] = rev
		rows = append(rows, s.rowLocked(rev))
	}
	var gone []string
	for k := range shown {
		if _, ok := s.latest[k]; !ok {
			gone = append(gone, k)
		}
	}
	failed := len(s.failed)
	s.mu.Unlock()
	s.Put(rows...)
	s.Delete(gone...)
	s.SetState(releasesState(s.parts, states, failed))
}

// rowLocked is the row of rev, the latest revision of its release, with its summary while the one decoded is
// still rev's; else it queues rev for a decoder. It notes whether the release's decode failed. s.mu held.
func (s *Source) rowLocked(rev Revision) *watch.Row {
	d, ok := s.decoded[rev.Stored()]
	fresh := ok && (d.version == rev.Version() || rev.UID == "" && rev.ResourceVersion == "")
	if !fresh {
		s.enqueueLocked(rev)
	}
	if ok && d.err != nil {
		s.failed[rev.Key()] = true
	} else {
		delete(s.failed, rev.Key())
	}
	return s.row(rev, d, fresh)
}

// row is the table row of rev, the latest revision of its release, with its decoded summary d when fresh.
func (s *Source) row(rev Revision, d decodedEntry, fresh bool) *watch.Row {
	chart, app, updated, rv := "", "", rev.Updated, rev.ResourceVersion
	if fresh {
		rv += "+"
		switch {
		case d.err != nil:
			chart, app = "<error>", "<error>"
		default:
			chart, app = d.sum.Chart, d.sum.AppVersion
			if !d.sum.Deployed.IsZero() {
				updated = d.sum.Deployed
			}
		}
	}
	cells := []string{rev.Release, strconv.Itoa(rev.Number), rev.Status, chart, app, ""}
	if s.Spec().AllNamespaces() {
		cells = append([]string{rev.Namespace}, cells...)
	}
	return &watch.Row{Key: rev.Key(), Namespace: rev.Namespace, Name: rev.Release, UID: rev.UID,
		ResourceVersion: rv, Created: updated, Cells: cells}
}

// enqueueLocked queues rev, the latest revision of its release, for a decoder: in the place of the one its
// release waits with, if any. s.mu held.
func (s *Source) enqueueLocked(rev Revision) {
	k := rev.Key()
	if s.reading[rev.Stored()] {
		return // once read, take looks again whether what was read is still fresh
	}
	if _, waiting := s.pending[k]; waiting {
		s.pending[k] = rev
		return
	}
	s.pending[k] = rev
	s.queue = append(s.queue, k)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Reading is how many latest revisions wait for their chart to be read, or are being read (0: every row's
// CHART and APP VERSION are known, or why not). Safe for concurrent use.
func (s *Source) Reading() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pending) + len(s.reading)
}

// decode decodes queued revisions until ctx ends, recording each one's summary (or error) and telling feed.
func (s *Source) decode(ctx context.Context) {
	for {
		rev, ok := s.next()
		if !ok {
			select {
			case <-ctx.Done():
				return
			case <-s.wake:
				continue
			}
		}
		rctx, cancel := context.WithTimeout(ctx, requestTimeout)
		rel, version, err := decodeVersion(rctx, s.get, rev)
		cancel()
		if version == "" {
			version = rev.Version()
		}
		entry := decodedEntry{version: version, err: err}
		if err == nil {
			entry.sum = Summarize(rel)
		}
		s.mu.Lock()
		delete(s.reading, rev.Stored())
		if ctx.Err() == nil {
			s.decoded[rev.Stored()] = entry
			s.read = append(s.read, rev.Key())
		}
		s.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		select {
		case s.done <- struct{}{}:
		default:
		}
	}
}

// next takes the first queued revision; when more wait, it wakes another decoder.
func (s *Source) next() (Revision, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return Revision{}, false
	}
	k := s.queue[0]
	s.queue = s.queue[1:]
	rev := s.pending[k]
	delete(s.pending, k)
	s.reading[rev.Stored()] = true
	if len(s.queue) > 0 {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
	return rev, true
}
