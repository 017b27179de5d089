package union

import (
	"context"
	"testing"
	"time"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// allSources records every source the fixture makes.
type allSources struct {
	*fixture
	made []*watch.StaticSource
}

func (a *allSources) NewSource(spec watch.Spec) (cluster.RowSource, error) {
	s, err := a.fixture.NewSource(spec)
	a.made = append(a.made, a.fixture.lastSource())
	return s, err
}

// TestUnionsLiveOneLifecycle: a union of kinds and one of namespaces start their parts with their own Start
// only (once; never after Stop), gather their rows, and Stop stops every part once the gathering goroutines
// have returned (Done closed), then releases the rows: the watch.Lifecycle every source embeds.
func TestUnionsLiveOneLifecycle(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(c SourceMaker, fx *fixture) (cluster.RowSource, error)
	}{
		{"kinds", func(c SourceMaker, fx *fixture) (cluster.RowSource, error) {
			union := discovery.Resource{Name: "deployments,replicasets", Namespaced: true}
			return NewKinds(nil, c, union, []discovery.Resource{fx.res["deployments"], fx.res["replicasets"]}, "shop", nil)
		}},
		{"namespaces", func(c SourceMaker, fx *fixture) (cluster.RowSource, error) {
			spec := watch.Spec{GVR: fx.res["deployments"].GVR(), Namespaced: true}
			return NewNamespaces(nil, c, spec, []string{"shop", "web"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fx := newFixture()
			c := &allSources{fixture: fx}
			src, err := tc.make(c, fx)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.made) != 2 {
				t.Fatalf("%d parts made, want 2", len(c.made))
			}
			for i, part := range c.made {
				if part.Started() {
					t.Fatalf("part %d started before the union", i)
				}
			}
			src.Start(context.Background())
			src.Start(context.Background()) // again: nothing more
			for i, part := range c.made {
				if !part.Started() {
					t.Fatalf("part %d not started with the union", i)
				}
			}
			pollFor(t, "the gathered rows", func() bool { return len(src.Snapshot(watch.Query{SortColumn: -1}).Rows) > 0 })
			src.Stop()
			select {
			case <-src.(interface{ Done() <-chan struct{} }).Done():
			case <-time.After(5 * time.Second):
				t.Fatal("Done not closed after Stop")
			}
			for i, part := range c.made {
				if !part.Stopped() {
					t.Errorf("part %d not stopped with the union", i)
				}
			}
			if n := len(src.Snapshot(watch.Query{SortColumn: -1}).Rows); n != 0 {
				t.Errorf("%d rows kept after Stop", n)
			}
			src.Start(context.Background()) // after Stop: nothing
			if src.State().Phase != watch.Stopped {
				t.Errorf("state after a Start after Stop: %v", src.State().Phase)
			}
		})
	}
}
