package union

import (
	"context"
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// BenchmarkClustersGather50k: three clusters' sources of 10k pods each, already listed, gathered into one
// table until it holds all 30k rows (the union's own cost over its parts').
func BenchmarkClustersGather(b *testing.B) {
	const perCluster = 10000
	res := discovery.Resource{Version: "v1", Name: "pods", Kind: "Pod", Namespaced: true, Verbs: []string{"list", "watch"}}
	cols := []watch.Column{{Name: "NAME", Type: "string", Format: "name"}, {Name: "READY", Type: "string"},
		{Name: "STATUS", Type: "string"}, {Name: "RESTARTS", Type: "integer"}, {Name: "AGE", Type: "string", Age: true}}
	rows := make([]*watch.Row, perCluster)
	for i := range rows {
		n := fmt.Sprintf("scale-%06d", i)
		rows[i] = &watch.Row{Key: "ns/" + n, Namespace: "ns", Name: n, UID: types.UID("uid-" + n), ResourceVersion: "1",
			Created: t0, Cells: []string{n, "1/1", "Running", "0", "<age>"}}
	}
	contexts := []string{"a", "b", "c"}
	conns := map[string]*stubCluster{"a": {name: "a"}, "b": {name: "b"}, "c": {name: "c"}}
	connect := func(_ context.Context, name string) (cluster.Interface, error) { return conns[name], nil }
	part := func(_ context.Context, c cluster.Interface, ns string) (discovery.Resource, cluster.RowSource, error) {
		return res, watch.NewStaticSource(watch.Spec{GVR: res.GVR(), Namespaced: true, Namespace: ns}, cols, rows...), nil
	}
	b.ReportAllocs()
	for b.Loop() {
		s := NewClusters(func(fn func()) { go fn() }, res, contexts, connect, part, "ns")
		ctx, cancel := context.WithCancel(context.Background())
		s.Start(ctx)
		for s.Len() < 3*perCluster {
			time.Sleep(100 * time.Microsecond)
		}
		cancel()
		s.Stop()
	}
}
