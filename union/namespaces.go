package union

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation"

	"kscope/cluster"
	"kscope/spawn"
	"kscope/watch"
)

// Namespaces is one namespaced resource in several namespaces as one table (`:pods shop,web`): a
// source per namespace, their rows gathered with a NAMESPACE cell first, as an all-namespaces view shows
// them. The rows, their changes, orders and filters are those of a watch.StaticSource, fed by one goroutine
// per namespace from that namespace's source. It implements cluster.RowSource; safe for concurrent use.
type Namespaces struct {
	*watch.StaticSource
	namespaces []string
	parts      []cluster.RowSource

	mu     sync.Mutex
	states []watch.State
	cols   []watch.Column // the parts' columns the union's were made from
}

// NewNamespaces builds (does not start) the rows of spec's resource in namespaces; start starts its
// goroutines (the app's supervisor's).
func NewNamespaces(start spawn.Func, c SourceMaker, spec watch.Spec, namespaces []string) (*Namespaces, error) {
	all := spec
	all.Namespace = ""
	s := &Namespaces{namespaces: namespaces, states: make([]watch.State, len(namespaces))}
	s.StaticSource = watch.NewFedSource(all, nil, watch.Hooks{Go: start, Run: s.run, Release: s.stopParts})
	for i, ns := range namespaces {
		one := spec
		one.Namespace = ns
		part, err := c.NewSource(one)
		if err != nil {
			return nil, fmt.Errorf("%s in %s: %w", spec.GVR.Resource, ns, err)
		}
		s.parts = append(s.parts, part)
		s.states[i] = watch.State{Phase: watch.Listing}
	}
	s.StaticSource.SetState(watch.State{Phase: watch.Listing})
	return s, nil
}

// PartSources returns the source of each namespace (partedSource), for the pulse view.
func (s *Namespaces) PartSources() ([]string, []cluster.RowSource) { return s.namespaces, s.parts }

// Namespaces returns the namespaces the source shows, for the table's title.
func (s *Namespaces) Namespaces() []string { return s.namespaces }

// run starts every namespace's source and the goroutines that gather their rows (the Lifecycle's Hooks.Run:
// the source's Start runs it once).
func (s *Namespaces) run(ctx context.Context, spawn func(func())) {
	for i, part := range s.parts {
		part.Start(ctx)
		spawn(func() { s.gather(ctx, i, part) })
	}
}

// stopParts stops the namespaces' sources once the gathering has returned (Hooks.Release: the source's Stop
// runs it, then releases the gathered rows).
func (s *Namespaces) stopParts() {
	for _, part := range s.parts {
		part.Stop()
	}
}

// gather keeps the union's rows of namespace i equal to part's until ctx ends: the whole list until the
// part has synced, its changes afterwards.
func (s *Namespaces) gather(ctx context.Context, i int, part cluster.RowSource) {
	mine := map[string]bool{}
	loaded := false
	for first := true; ; first = false {
		if !first {
			select {
			case <-ctx.Done():
				return
			case <-part.Notify():
			}
		}
		s.columnsFrom(part.Columns())
		age := AgeIndex(part.Columns())
		changes := part.Changes()
		if !loaded {
			l := takeList(part, func(r *watch.Row) *watch.Row { return withNamespaceCell(r, age) }, mine)
			s.Put(l.rows...)
			s.Delete(l.gone...)
			mine, loaded = l.now, l.synced
		} else {
			s.apply(part, changes, mine, age)
		}
		s.stateFrom(i, part.State())
	}
}

// apply puts the rows changes added or updated and deletes those it deleted; age is the rows' Age cell.
func (s *Namespaces) apply(part cluster.RowSource, changes watch.ChangeSet, mine map[string]bool, age int) {
	var rows []*watch.Row
	for _, keys := range [][]string{changes.Added, changes.Updated} {
		for _, k := range keys {
			if r, ok := part.Row(k); ok {
				rows = append(rows, withNamespaceCell(r, age))
				mine[k] = true
			}
		}
	}
	s.Put(rows...)
	var gone []string
	for _, r := range changes.Deleted {
		gone = append(gone, r.Key)
		delete(mine, r.Key)
	}
	s.Delete(gone...)
}

// withNamespaceCell returns a copy of r with its namespace as the first cell (filtered by it too); age is
// the index of r's Age cell, or -1.
func withNamespaceCell(r *watch.Row, age int) *watch.Row {
	if age >= 0 {
		age++
	}
	return r.WithCells(append(append(make([]string, 0, len(r.Cells)+1), r.Namespace), r.Cells...), age)
}

// AgeIndex returns the index of the Age column of cols, or -1.
func AgeIndex(cols []watch.Column) int {
	return slices.IndexFunc(cols, func(c watch.Column) bool { return c.Age })
}

// columnsFrom makes the union's columns NAMESPACE and then cols, when cols are new.
func (s *Namespaces) columnsFrom(cols []watch.Column) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(cols) == 0 || slices.Equal(cols, s.cols) {
		return
	}
	s.cols = cols
	s.StaticSource.SetColumns(append([]watch.Column{{Name: "NAMESPACE", Type: "string"}}, cols...))
}

// stateFrom records namespace i's state and sets the union's: the first namespace's error or terminal
// state (named), else Listing until every namespace has synced.
func (s *Namespaces) stateFrom(i int, st watch.State) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.states[i] = st
	union := watch.State{Phase: watch.Synced}
	for j, st := range s.states {
		switch {
		case st.Err != nil || st.Message != "":
			union = st
			union.Message = s.namespaces[j] + ": " + cmp.Or(st.Message, fmt.Sprint(st.Err))
			s.StaticSource.SetState(union)
			return
		case st.Phase != watch.Synced:
			union.Phase = st.Phase
		}
	}
	s.StaticSource.SetState(union)
}

// ParseNamespaces reads a comma-separated list of namespaces (`shop,web`), each once, in order.
func ParseNamespaces(text string) ([]string, error) {
	var out []string
	for _, ns := range strings.Split(text, ",") {
		ns = strings.TrimSpace(ns)
		if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
			return nil, fmt.Errorf("invalid namespace %q: %s", ns, errs[0])
		}
		if !slices.Contains(out, ns) {
			out = append(out, ns)
		}
	}
	return out, nil
}
