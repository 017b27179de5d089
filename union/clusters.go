package union

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/spawn"
	"kscope/watch"
)

// Connector connects to a kubeconfig context, blocking until it is connected or failed (ctx ends it). The
// connections it returns are the caller's: Clusters never closes them.
type Connector func(ctx context.Context, context string) (cluster.Interface, error)

// ClusterPart builds (does not start) the rows of a table's resource in one cluster, c, in namespace ("": all
// namespaces, or the namespaces the part was made for): the resource they are of, as c's catalog has it, and
// their source. It runs on a goroutine of its own and may read c's discovery.
type ClusterPart func(ctx context.Context, c cluster.Interface, namespace string) (discovery.Resource, cluster.RowSource, error)

// Clusters is one table over several clusters (`:pods @prod,@stg`): a connection and a source per
// kubeconfig context, their rows gathered with a CONTEXT cell first and laid out as a table of several
// kinds lays out its kinds (layoutKinds: the clusters' own columns when they all have the same, else
// CONTEXT, NAME, NAMESPACE and AGE). Each cluster connects, resolves the resource and lists on a goroutine of
// its own: a cluster that is slow, unreachable, refused or that does not serve the resource never holds back
// or blanks the others; the state's note has one word per cluster. A row's key is its cluster's index, "/",
// and its key in that cluster's source. It implements cluster.RowSource; safe for concurrent use.
type Clusters struct {
	*watch.StaticSource
	start     spawn.Func
	res       discovery.Resource // the table's
	contexts  []string
	connect   Connector
	part      ClusterPart
	namespace string
	wake      chan int // a cluster's index, when its part or its rows changed

	mu    sync.Mutex
	parts []memberPart // guarded by mu: set by each cluster's goroutine

	// The gathering goroutine's own, unguarded.
	cols   [][]watch.Column
	states []watch.State
	layout kindLayout
	loaded []bool
	// loadedAt is when each cluster's whole list was last taken while it was listing (loadNow).
	loadedAt []time.Time
	mine     []map[string]bool
}

// memberPart is one cluster's part of a Clusters: its connection, resource and rows once it has them, and
// what it is doing or why it failed before.
type memberPart struct {
	c   cluster.Interface
	res discovery.Resource
	src cluster.RowSource
	// word is what the cluster is doing before it has a source ("connecting"), or why it has none
	// ("unreachable", "not served"); err the error.
	word string
	err  error
}

// contextColumn is the first column of a table of several clusters.
var contextColumn = watch.Column{Name: "CONTEXT", Type: "string", Description: "The kubeconfig context of the object's cluster."}

// NewClusters builds (does not start) the table of res over the clusters of contexts (two or more, each
// once): connect connects to each, part builds its rows in namespace. start starts its goroutines (the
// app's supervisor's).
func NewClusters(start spawn.Func, res discovery.Resource, contexts []string, connect Connector, part ClusterPart, namespace string) *Clusters {
	spec := watch.Spec{GVR: res.GVR(), Namespaced: res.Namespaced, Namespace: namespace}
	n := len(contexts)
	s := &Clusters{start: start, res: res, contexts: contexts, connect: connect, part: part, namespace: namespace,
		wake: make(chan int, n), parts: make([]memberPart, n), cols: make([][]watch.Column, n),
		states: make([]watch.State, n), loaded: make([]bool, n), loadedAt: make([]time.Time, n),
		mine: make([]map[string]bool, n)}
	for i := range contexts {
		s.parts[i].word = "connecting"
		s.states[i] = watch.State{Phase: watch.Listing}
		s.mine[i] = map[string]bool{}
	}
	s.StaticSource = watch.NewFedSource(spec, nil, watch.Hooks{Go: start, Run: s.run, Release: s.stopParts})
	s.StaticSource.SetState(clustersState(contexts, s.parts, s.states, make([]int, n)))
	return s
}

// Contexts returns the table's contexts, in order.
func (s *Clusters) Contexts() []string { return s.contexts }

// ClusterOf returns the connection and context of a row of the table; false while its cluster is not
// connected (or for a row of no cluster of the table).
func (s *Clusters) ClusterOf(row *watch.Row) (cluster.Interface, string, bool) {
	i, _, ok := s.index(row)
	if !ok {
		return nil, "", false
	}
	s.mu.Lock()
	c := s.parts[i].c
	s.mu.Unlock()
	return c, s.contexts[i], c != nil
}

// PartOf returns the source of a row's cluster and the row's key there; false while its cluster has no
// source (or for a row of no cluster of the table).
func (s *Clusters) PartOf(row *watch.Row) (cluster.RowSource, string, bool) {
	i, key, ok := s.index(row)
	if !ok {
		return nil, "", false
	}
	s.mu.Lock()
	src := s.parts[i].src
	s.mu.Unlock()
	return src, key, src != nil
}

// Sources are the clusters' sources as they are now, in the order of Contexts: nil for a cluster that has
// none yet (connecting) or will have none (unreachable, not served).
func (s *Clusters) Sources() []cluster.RowSource {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]cluster.RowSource, len(s.parts))
	for i, p := range s.parts {
		out[i] = p.src
	}
	return out
}

// KindOf returns the resource of a row of the table (its cluster's) and the row as its cluster's source holds
// it now, keyed as that source keys it (passed on to that source when it shows several kinds).
func (s *Clusters) KindOf(row *watch.Row) (discovery.Resource, *watch.Row, bool) {
	i, key, ok := s.index(row)
	if !ok {
		return discovery.Resource{}, nil, false
	}
	s.mu.Lock()
	p := s.parts[i]
	s.mu.Unlock()
	if p.src == nil {
		return discovery.Resource{}, nil, false
	}
	own := *row
	if cur, ok := p.src.Row(key); ok {
		// The cluster's row as it is now: a metadata fill behind a one-namespace list (the UID, the labels)
		// completes it quietly, without a change the table would take.
		own = *cur
	}
	own.Key = key
	if k, ok := p.src.(interface {
		KindOf(*watch.Row) (discovery.Resource, *watch.Row, bool)
	}); ok {
		return k.KindOf(&own)
	}
	return p.res, &own, true
}

// InNamespace returns the same clusters' table in namespace ns ("" = all), not started.
func (s *Clusters) InNamespace(ns string) (cluster.RowSource, error) {
	return NewClusters(s.start, s.res, s.contexts, s.connect, s.part, ns), nil
}

// index returns the cluster of row's key and its key in that cluster's source.
func (s *Clusters) index(row *watch.Row) (int, string, bool) {
	if row == nil {
		return 0, "", false
	}
	idx, key, ok := strings.Cut(row.Key, "/")
	i, err := strconv.Atoi(idx)
	if !ok || err != nil || i < 0 || i >= len(s.contexts) {
		return 0, "", false
	}
	return i, key, true
}

// run starts each cluster's goroutine and the gathering one (Hooks.Run).
func (s *Clusters) run(ctx context.Context, spawn func(func())) {
	for i := range s.contexts {
		spawn(func() { s.follow(ctx, i) })
	}
	spawn(func() { s.gather(ctx) })
}

// follow connects cluster i, builds and starts its part, then passes its notifications on, until ctx ends.
func (s *Clusters) follow(ctx context.Context, i int) {
	c := ConnectRetrying(ctx, func(ctx context.Context) (cluster.Interface, error) { return s.connect(ctx, s.contexts[i]) },
		func(err error) { s.setPart(ctx, i, memberPart{word: "unreachable", err: err}) })
	if c == nil {
		return
	}
	res, src, err := s.part(ctx, c, s.namespace)
	if err != nil {
		s.setPart(ctx, i, memberPart{c: c, word: "not served", err: err})
		return
	}
	src.Start(ctx)
	s.setPart(ctx, i, memberPart{c: c, res: res, src: src})
	for {
		select {
		case <-ctx.Done():
			return
		case <-src.Notify():
			if !s.tell(ctx, i) {
				return
			}
		}
	}
}

// setPart records cluster i's part and tells the gathering goroutine.
func (s *Clusters) setPart(ctx context.Context, i int, p memberPart) {
	s.mu.Lock()
	s.parts[i] = p
	s.mu.Unlock()
	s.tell(ctx, i)
}

// tell wakes the gathering goroutine for cluster i; false once ctx has ended.
func (s *Clusters) tell(ctx context.Context, i int) bool {
	select {
	case s.wake <- i:
		return true
	case <-ctx.Done():
		return false
	}
}

// stopParts stops the clusters' sources once every goroutine has returned (Hooks.Release).
func (s *Clusters) stopParts() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.parts {
		if p.src != nil {
			p.src.Stop()
		}
	}
}

// gather takes each cluster's columns, rows and state when it tells, until ctx ends.
func (s *Clusters) gather(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case i := <-s.wake:
			s.take(i)
		}
	}
}

// take brings cluster i's columns, rows and state into the table.
func (s *Clusters) take(i int) {
	s.mu.Lock()
	parts := append([]memberPart(nil), s.parts...)
	s.mu.Unlock()
	if src := parts[i].src; src != nil {
		s.cols[i] = src.Columns()
		changes := src.Changes()
		switch {
		case s.relayout(parts):
		case s.layout.columns == nil:
		case !s.loaded[i]:
			if s.loadNow(i, src.State()) {
				s.load(i, src)
			}
		default:
			s.apply(i, src, changes)
		}
		s.states[i] = src.State()
	}
	counts := make([]int, len(s.mine))
	for j, m := range s.mine {
		counts[j] = len(m)
	}
	s.StaticSource.SetState(clustersState(s.contexts, parts, s.states, counts))
}

// relayout lays every cluster's rows out anew when the columns call for another layout; it tells whether
// it did.
func (s *Clusters) relayout(parts []memberPart) bool {
	l := layoutKinds(s.cols, s.namespace == "" && s.res.Namespaced)
	if l.equal(s.layout) {
		return false
	}
	if s.layout.columns != nil && slices.Equal(l.columns, s.layout.columns) && l.shared == s.layout.shared &&
		l.namespace == s.layout.namespace && len(l.age) == len(s.layout.age) {
		// The same columns: only a cluster whose rows were laid out with another Age cell is taken again (a
		// cluster whose columns just came had none); the others' rows stand.
		for j, p := range parts {
			if l.age[j] != s.layout.age[j] && len(s.mine[j]) > 0 && p.src != nil {
				s.layout.age[j] = l.age[j]
				s.Delete(keysOf(s.mine[j])...)
				s.mine[j] = map[string]bool{}
				s.load(j, p.src)
			}
		}
		s.layout = l
		return false
	}
	had := s.layout.columns != nil
	s.layout = l
	if l.columns == nil {
		return true
	}
	cols := append([]watch.Column(nil), l.columns...)
	cols[0] = contextColumn
	s.StaticSource.SetColumns(cols)
	for j, p := range parts {
		if had {
			s.Delete(keysOf(s.mine[j])...) // new cells need new rows
			s.mine[j] = map[string]bool{}
		}
		if p.src != nil && len(s.cols[j]) > 0 { // (a cluster whose columns have not come is loaded when they do)
			s.load(j, p.src)
		}
	}
	return true
}

// listingLoads is how often, at most, a cluster's rows are taken again while its first list arrives.
const listingLoads = 250 * time.Millisecond

// loadNow tells whether to take cluster i's whole list now, while it is not yet loaded (st: its state): its
// first rows (the first screen), its last (synced or failed), and in between every listingLoads at most.
// Each take copies every row the cluster has and the table sorts them all again: once per page of the
// list, a table of three clusters of 10k pods took four times a single cluster's time to complete.
func (s *Clusters) loadNow(i int, st watch.State) bool {
	now := time.Now()
	if len(s.mine[i]) == 0 || st.Phase != watch.Listing || now.Sub(s.loadedAt[i]) >= listingLoads {
		s.loadedAt[i] = now
		return true
	}
	return false
}

// row is r, a row of cluster i, as the table shows it.
func (s *Clusters) row(i int, r *watch.Row) *watch.Row {
	c := s.layout.row(i, s.contexts[i], r)
	c.Key = strconv.Itoa(i) + "/" + r.Key
	return c
}

// load puts cluster i's whole list, deleting the rows it no longer has; it is loaded once synced.
func (s *Clusters) load(i int, src cluster.RowSource) {
	l := takeList(src, func(r *watch.Row) *watch.Row { return s.row(i, r) }, s.mine[i])
	if s.loaded[i] {
		s.Put(l.rows...)
	} else {
		s.PutListed(l.rows...) // its first list: no change to flash or keep a version of
	}
	s.Delete(l.gone...)
	s.mine[i], s.loaded[i] = l.now, l.synced
}

// apply puts the rows cluster i's changes added or updated and deletes those it deleted.
func (s *Clusters) apply(i int, src cluster.RowSource, changes watch.ChangeSet) {
	var rows []*watch.Row
	for _, keys := range [][]string{changes.Added, changes.Updated} {
		for _, k := range keys {
			if r, ok := src.Row(k); ok {
				row := s.row(i, r)
				rows = append(rows, row)
				s.mine[i][row.Key] = true
			}
		}
	}
	s.Put(rows...)
	var gone []string
	for _, r := range changes.Deleted {
		k := strconv.Itoa(i) + "/" + r.Key
		gone = append(gone, k)
		delete(s.mine[i], k)
	}
	s.Delete(gone...)
}

// clustersState is the table's state: a note with one word per cluster ("prod synced · stg listing 300 of
// 10000 · dev unreachable"; counts are the rows in of each); the phase Listing while a cluster connects or lists, Reconnecting while one
// reconnects, else Synced; when no cluster has a source, the first failure is the table's.
func clustersState(contexts []string, parts []memberPart, states []watch.State, counts []int) watch.State {
	union := watch.State{Phase: watch.Synced}
	words := make([]string, len(contexts))
	working, firstErr := 0, -1
	for i, p := range parts {
		st := states[i]
		switch {
		case p.src == nil && p.err != nil:
			words[i] = contexts[i] + " " + p.word + ": " + p.err.Error()
			if firstErr < 0 {
				firstErr = i
			}
			continue
		case p.src == nil:
			words[i] = contexts[i] + " " + p.word
			union.Phase = watch.Listing
		case st.Phase == watch.Listing && st.Expected > 0:
			words[i] = fmt.Sprintf("%s listing %d of %d", contexts[i], counts[i], st.Expected)
		default:
			words[i] = contexts[i] + " " + st.Phase.String()
			if st.Err != nil || st.Message != "" {
				words[i] += ": " + firstNonEmpty(st.Message, fmt.Sprint(st.Err))
			}
		}
		working++
		switch {
		case p.src == nil, st.Phase == watch.Synced, st.Phase.Terminal():
		case st.Phase == watch.Listing && union.Phase == watch.Synced:
			union.Phase = watch.Listing
		case st.Phase == watch.Reconnecting:
			union.Phase = watch.Reconnecting
		}
	}
	if working == 0 && firstErr >= 0 { // no cluster to show: the first failure is the table's
		p := parts[firstErr]
		union = watch.State{Phase: watch.NotFound, Err: p.err, Message: contexts[firstErr] + " " + p.word + ": " + p.err.Error()}
		if p.word == "unreachable" { // tried again (ConnectRetrying)
			union.Phase = watch.Reconnecting
		}
	}
	union.Note = strings.Join(words, " · ")
	return union
}

// firstNonEmpty returns a unless it is empty, else b.
func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
