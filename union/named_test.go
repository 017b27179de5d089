package union

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

func TestNamedKeepsTheSetsRowsLiveAndComputesTheKindsColumns(t *testing.T) {
	fc := newFixture()
	var specs []watch.Spec
	maker := sourceMakerFunc(func(spec watch.Spec) (*watch.StaticSource, error) {
		specs = append(specs, spec)
		s, err := fc.NewSource(spec)
		return s.(*watch.StaticSource), err
	})
	deploy, rs := fc.res["deployments"], fc.res["replicasets"]
	fc.rows["deployments"] = append(fc.rows["deployments"], &watch.Row{Key: "shop/api", Namespace: "shop", Name: "api",
		UID: types.UID("uid-api"), Created: t0, Cells: []string{"api", "1/1", "1", "1", "<age>", "api:1"}})
	cols := []watch.ObjectColumn{watch.HealthColumn()}
	kinds, err := NewObjectKinds(nil, maker, discovery.Resource{Name: "deployments,replicasets", Namespaced: true},
		[]discovery.Resource{deploy, rs}, "shop", cols)
	if err != nil {
		t.Fatal(err)
	}
	src := NewNamed(kinds, []NamedObject{{Res: deploy, Namespace: "shop", Name: "web"}, {Res: rs, Namespace: "shop", Name: "web-7d9f"},
		{Res: rs, Namespace: "shop", Name: "web-gone"}})
	for _, s := range specs {
		if len(s.Columns) != 1 || s.Columns[0].Column.Name != watch.HealthColumnName {
			t.Errorf("the part of %s lists with columns %v, want HEALTH from the objects", s.GVR.Resource, s.Columns)
		}
	}
	src.Start(context.Background())
	defer src.Stop()
	pollFor(t, "both kinds' rows of the set", func() bool { return len(src.Snapshot(watch.Query{SortColumn: -1}).Rows) == 2 })
	snap := src.Snapshot(watch.Query{SortColumn: -1})
	var keys []string
	for _, r := range snap.Rows {
		keys = append(keys, r.Key)
	}
	if strings.Join(keys, " ") != "deployment.apps/shop/web replicaset.apps/shop/web-7d9f" || snap.Total != 2 {
		t.Errorf("rows %q total %d: want the set's two that exist, not api", keys, snap.Total)
	}
	in, err := src.InNamespace("other")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := in.(*Named); !ok {
		t.Errorf("in another namespace: %T, want the same set's rows", in)
	}
}

// sourceMakerFunc is a SourceMaker of static sources.
type sourceMakerFunc func(spec watch.Spec) (*watch.StaticSource, error)

func (f sourceMakerFunc) NewSource(spec watch.Spec) (cluster.RowSource, error) { return f(spec) }
