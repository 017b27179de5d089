package union

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// stubCluster stands for the connection of a context; the tests' parts never call it.
type stubCluster struct {
	cluster.Interface
	name string
}

// TestClustersGathersEachClusterApart: each cluster's rows come in with its CONTEXT cell and a key of its
// own (a pod of one name in two clusters is two rows), an unreachable cluster is named in the note without
// holding the others back, each row maps back to its cluster and its own row, and changes follow.
func TestClustersGathersEachClusterApart(t *testing.T) {
	clusters := map[string]*fixture{"a": newFixture(), "b": newFixture()}
	conns := map[string]*stubCluster{"a": {name: "a"}, "b": {name: "b"}}
	connect := func(_ context.Context, name string) (cluster.Interface, error) {
		if c, ok := conns[name]; ok {
			return c, nil
		}
		return nil, errors.New("dial tcp 127.0.0.1:1: connection refused")
	}
	var mu sync.Mutex
	sources := map[string]*watch.StaticSource{}
	source := func(name string) *watch.StaticSource {
		mu.Lock()
		defer mu.Unlock()
		return sources[name]
	}
	part := func(_ context.Context, c cluster.Interface, ns string) (discovery.Resource, cluster.RowSource, error) {
		f := clusters[c.(*stubCluster).name]
		res := f.res["deployments"]
		src, err := f.NewSource(watch.Spec{GVR: res.GVR(), Namespaced: true, Namespace: ns})
		mu.Lock()
		sources[c.(*stubCluster).name] = f.lastSource()
		mu.Unlock()
		return res, src, err
	}
	res := newFixture().res["deployments"]
	s := NewClusters(func(fn func()) { go fn() }, res, []string{"a", "b", "gone"}, connect, part, "shop")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Start(ctx)
	defer s.Stop()

	pollFor(t, "both clusters' rows, the third unreachable", func() bool {
		st := s.State()
		return s.Len() == 2 && strings.Contains(st.Note, "gone unreachable: dial tcp")
	})
	st := s.State()
	if st.Phase != watch.Synced || st.Note != "a synced · b synced · gone unreachable: dial tcp 127.0.0.1:1: connection refused" {
		t.Fatalf("state %v %q", st.Phase, st.Note)
	}
	if got := columnNames(s.Columns()); !strings.HasPrefix(got, "CONTEXT NAME READY") {
		t.Fatalf("columns %s", got)
	}
	row, ok := s.Row("1/shop/web")
	if !ok || row.Cells[0] != "b" || row.Cells[1] != "web" {
		t.Fatalf("b's web: %v %v", row, ok)
	}
	c, name, ok := s.ClusterOf(row)
	if !ok || name != "b" || c != conns["b"] {
		t.Fatalf("cluster of b's web: %v %q %v", c, name, ok)
	}
	kind, own, ok := s.KindOf(row)
	if !ok || kind.Name != "deployments" || own.Key != "shop/web" || own.UID != "uid-web" {
		t.Fatalf("kind of b's web: %v %+v %v", kind.Name, own, ok)
	}
	if part, key, ok := s.PartOf(row); !ok || part != cluster.RowSource(source("b")) || key != "shop/web" {
		t.Fatalf("part of b's web: %v %q %v", part, key, ok)
	}
	if srcs := s.Sources(); len(srcs) != 3 || srcs[0] != cluster.RowSource(source("a")) || srcs[1] != cluster.RowSource(source("b")) || srcs[2] != nil {
		t.Fatalf("sources %v", srcs)
	}

	s.Changes() // (the first lists, laid out again as the second cluster's columns came)
	source("b").Put(&watch.Row{Key: "shop/api", Namespace: "shop", Name: "api", Cells: []string{"api", "1/1", "1", "1", "<age>", "x"}})
	source("a").Delete("shop/web")
	pollFor(t, "b's new row and a's deleted one", func() bool {
		_, added := s.Row("1/shop/api")
		_, kept := s.Row("0/shop/web")
		return added && !kept && s.Len() == 2
	})
	if ch := s.Changes(); len(ch.Added) != 1 || ch.Added[0] != "1/shop/api" {
		t.Fatalf("b's new row not reported as added: %+v", ch)
	}
}

// TestClustersState: one word per cluster; listing while one lists or connects, the first failure the
// table's only when no cluster has rows to show.
func TestClustersState(t *testing.T) {
	src := watch.NewStaticSource(watch.Spec{}, nil)
	refused := errors.New("refused")
	tests := []struct {
		name   string
		parts  []memberPart
		states []watch.State
		phase  watch.Phase
		note   string
	}{
		{"connecting", []memberPart{{src: src}, {word: "connecting"}},
			[]watch.State{{Phase: watch.Synced}, {Phase: watch.Listing}}, watch.Listing, "a synced · b connecting"},
		{"listing", []memberPart{{src: src}, {src: src}},
			[]watch.State{{Phase: watch.Listing, Expected: 10}, {Phase: watch.Synced}}, watch.Listing, "a listing 3 of 10 · b synced"},
		{"forbidden", []memberPart{{src: src}, {src: src}},
			[]watch.State{{Phase: watch.Forbidden, Message: "no"}, {Phase: watch.Synced}}, watch.Synced, "a forbidden: no · b synced"},
		{"all unreachable", []memberPart{{word: "unreachable", err: refused}, {word: "not served", err: refused}},
			[]watch.State{{}, {}}, watch.Reconnecting, "a unreachable: refused · b not served: refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := clustersState([]string{"a", "b"}, tt.parts, tt.states, []int{3, 0})
			if st.Phase != tt.phase || st.Note != tt.note {
				t.Fatalf("got %v %q, want %v %q", st.Phase, st.Note, tt.phase, tt.note)
			}
		})
	}
}
