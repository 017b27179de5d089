package union

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/spawn"
	"kscope/watch"
)

// Kinds is several resources as one table (`:deploy,sts,ds`, `:all`): a source per kind (a
// Namespaces per kind over several namespaces), their rows gathered with a KIND cell first and laid out
// by layoutKinds. The rows, their changes, orders and filters are those of a watch.StaticSource, fed by one
// goroutine from the kinds' sources. No row is shown until every kind has listed or failed, so that the
// columns do not change under the first rows. It implements cluster.RowSource; safe for concurrent use.
type Kinds struct {
	*watch.StaticSource
	sources    SourceMaker
	start      spawn.Func         // starts the gathering goroutine (NewKinds's, kept for InNamespace)
	res        discovery.Resource // the union's (unionResource)
	kinds      []discovery.Resource
	labels     []string
	namespace  string
	namespaces []string             // two or more namespaces, or nil
	objectCols []watch.ObjectColumn // the columns every kind's rows are computed with from its objects (nil: the server's)
	parts      []cluster.RowSource

	// The gathering goroutine's own, unguarded.
	cols    [][]watch.Column  // each kind's columns as last seen
	states  []watch.State     // each kind's state as last seen
	layout  kindLayout        // the layout the rows are put in
	laidOut bool              // every kind listed or failed once: rows are shown
	loaded  []bool            // the kind's rows are all in and followed by its changes
	mine    []map[string]bool // the union's keys of each kind's rows
}

// NewKinds builds (does not start) the rows of kinds as the table of res: a namespaced kind in
// namespace ("" = all), or in namespaces when there are two or more; a cluster-scoped kind at the cluster.
// start starts its goroutines (the app's supervisor's).
func NewKinds(start spawn.Func, c SourceMaker, res discovery.Resource, kinds []discovery.Resource, namespace string, namespaces []string) (*Kinds, error) {
	return newKinds(start, c, res, kinds, namespace, namespaces, nil)
}

// NewObjectKinds is NewKinds in one namespace ("" = all) with every kind's rows computed from its objects
// with cols (watch.Spec.Columns: the same for every kind, so that the table shows them after KIND).
func NewObjectKinds(start spawn.Func, c SourceMaker, res discovery.Resource, kinds []discovery.Resource, namespace string, cols []watch.ObjectColumn) (*Kinds, error) {
	return newKinds(start, c, res, kinds, namespace, nil, cols)
}

func newKinds(start spawn.Func, c SourceMaker, res discovery.Resource, kinds []discovery.Resource, namespace string, namespaces []string, cols []watch.ObjectColumn) (*Kinds, error) {
	if len(namespaces) > 1 {
		namespace = ""
	} else {
		namespaces = nil
	}
	spec := watch.Spec{GVR: res.GVR(), Namespaced: res.Namespaced, Namespace: namespace}
	s := &Kinds{sources: c, start: start, res: res, kinds: kinds, namespace: namespace, namespaces: namespaces, objectCols: cols}
	s.StaticSource = watch.NewFedSource(spec, nil, watch.Hooks{Go: start, Run: s.run, Release: s.stopParts})
	for _, k := range kinds {
		part, err := kindPart(start, c, k, namespace, namespaces, cols)
		if err != nil {
			return nil, err
		}
		s.parts = append(s.parts, part)
		s.labels = append(s.labels, KindLabel(k))
		s.cols = append(s.cols, nil)
		s.states = append(s.states, watch.State{Phase: watch.Listing})
		s.loaded = append(s.loaded, false)
		s.mine = append(s.mine, map[string]bool{})
	}
	s.StaticSource.SetState(watch.State{Phase: watch.Listing})
	return s, nil
}

// kindPart builds the source of one kind of a Kinds.
func kindPart(start spawn.Func, c SourceMaker, k discovery.Resource, namespace string, namespaces []string, cols []watch.ObjectColumn) (cluster.RowSource, error) {
	spec := watch.Spec{GVR: k.GVR(), Namespaced: k.Namespaced, Columns: cols}
	var part cluster.RowSource
	var err error
	switch {
	case !k.Namespaced:
		part, err = c.NewSource(spec)
	case len(namespaces) > 1:
		part, err = NewNamespaces(start, c, spec, namespaces)
	default:
		spec.Namespace = namespace
		part, err = c.NewSource(spec)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", k.FullName(), err)
	}
	return part, nil
}

// Kinds returns the resources the table shows.
func (s *Kinds) Kinds() []discovery.Resource { return s.kinds }

// InNamespace returns a new (not started) source of the same kinds in namespace ns ("" = all).
func (s *Kinds) InNamespace(ns string) (cluster.RowSource, error) {
	return newKinds(s.start, s.sources, s.res, s.kinds, ns, nil, s.objectCols)
}

// KindOf returns the resource of a row of the table and the row as its kind's source keys it.
func (s *Kinds) KindOf(row *watch.Row) (discovery.Resource, *watch.Row, bool) {
	label, key, ok := strings.Cut(row.Key, "/")
	if !ok {
		return discovery.Resource{}, nil, false
	}
	for i, l := range s.labels {
		if l == label {
			own := *row
			own.Key = key
			return s.kinds[i], &own, true
		}
	}
	return discovery.Resource{}, nil, false
}

// run starts every kind's source and the goroutine that gathers their rows (the Lifecycle's Hooks.Run: the
// source's Start runs it once).
func (s *Kinds) run(ctx context.Context, spawn func(func())) {
	for _, part := range s.parts {
		part.Start(ctx)
	}
	spawn(func() { s.gather(ctx) })
}

// stopParts stops the kinds' sources once the gathering has returned (Hooks.Release: the source's Stop runs
// it, then releases the gathered rows).
func (s *Kinds) stopParts() {
	for _, part := range s.parts {
		part.Stop()
	}
}

// gather follows every kind's source until ctx ends, taking each one's rows and state when it notifies.
func (s *Kinds) gather(ctx context.Context) {
	cases := []reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())}}
	for i, part := range s.parts {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(part.Notify())})
		s.take(i)
	}
	for {
		chosen, _, _ := reflect.Select(cases)
		if chosen == 0 {
			return
		}
		s.take(chosen - 1)
	}
}

// take brings kind i's columns, rows and state into the union.
func (s *Kinds) take(i int) {
	part := s.parts[i]
	s.cols[i] = part.Columns()
	changes := part.Changes()
	switch {
	case !s.laidOut:
		s.laidOut = s.settled(i, part.State())
		if s.laidOut {
			s.relayout(false)
		}
	case s.relayout(true):
	case !s.loaded[i]:
		s.load(i)
	default:
		s.apply(i, changes)
	}
	s.states[i] = part.State()
	s.StaticSource.SetState(kindsState(s.labels, s.states))
}

// settled records kind i's state and tells whether every kind has listed (its columns are known) or failed.
func (s *Kinds) settled(i int, st watch.State) bool {
	s.states[i] = st
	for j, st := range s.states {
		if len(s.cols[j]) == 0 && st.Phase == watch.Listing {
			return false
		}
	}
	return true
}

// relayout lays the rows out anew when the columns call for another layout (or always, unless onlyIfChanged),
// putting every kind's rows again; it tells whether it did.
func (s *Kinds) relayout(onlyIfChanged bool) bool {
	l := layoutKinds(s.cols, s.namespace == "" && s.res.Namespaced)
	if onlyIfChanged && l.equal(s.layout) {
		return false
	}
	had := s.layout.columns != nil
	s.layout = l
	if l.columns != nil {
		s.StaticSource.SetColumns(l.columns)
	}
	for j := range s.parts {
		if had {
			// Rows with the same version and as many cells would be taken as unchanged: new cells need new rows.
			s.Delete(keysOf(s.mine[j])...)
			s.mine[j] = map[string]bool{}
		}
		s.load(j)
	}
	return true
}

// load puts kind i's whole list, deleting the rows it no longer has; the kind is loaded once synced.
func (s *Kinds) load(i int) {
	l := takeList(s.parts[i], func(r *watch.Row) *watch.Row { return s.layout.row(i, s.labels[i], r) }, s.mine[i])
	s.Put(l.rows...)
	s.Delete(l.gone...)
	s.mine[i], s.loaded[i] = l.now, l.synced
}

// apply puts the rows kind i's changes added or updated and deletes those it deleted.
func (s *Kinds) apply(i int, changes watch.ChangeSet) {
	part := s.parts[i]
	var rows []*watch.Row
	for _, keys := range [][]string{changes.Added, changes.Updated} {
		for _, k := range keys {
			if r, ok := part.Row(k); ok {
				row := s.layout.row(i, s.labels[i], r)
				rows = append(rows, row)
				s.mine[i][row.Key] = true
			}
		}
	}
	s.Put(rows...)
	var gone []string
	for _, r := range changes.Deleted {
		k := s.labels[i] + "/" + r.Key
		gone = append(gone, k)
		delete(s.mine[i], k)
	}
	s.Delete(gone...)
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// KindsInNamespaces is a Kinds over two or more namespaces: its title names them.
type KindsInNamespaces struct{ *Kinds }

// Namespaces returns the namespaces the source shows, for the table's title.
func (s KindsInNamespaces) Namespaces() []string { return s.namespaces }

// PartSources returns each kind's source with its label (partedSource), for the pulse view.
func (s *Kinds) PartSources() ([]string, []cluster.RowSource) { return s.labels, s.parts }
