package changes

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"kscope/tree"
)

// BenchmarkFeed feeds a model the first list of 50k objects (two managedFields entries each, in 50
// namespaces), then b.N updates (run with -benchtime=100000x for the 100k of the package doc), each by a
// manager writing again a second later. It reports ns/op per update and B-held: the heap the model holds
// after a GC (its state and its ring; the objects fed are let go).
func BenchmarkFeed(b *testing.B) {
	const objects = 50000
	before := heap()
	list := make([]*metav1.PartialObjectMetadata, objects)
	for i := range list {
		list[i] = obj(fmt.Sprintf("ns-%d", i%50), fmt.Sprintf("object-%06d", i), fmt.Sprint(i+1),
			mf("kubectl-create", "Update", "", 0, createFields), mf("controller", "Update", "status", 1, statusFields))
	}
	updates := make([]*metav1.PartialObjectMetadata, 1000)
	for i := range updates {
		o := list[(i*7919)%objects]
		updates[i] = obj(o.Namespace, o.Name, fmt.Sprint(objects+i+1),
			mf("kubectl-create", "Update", "", 0, createFields), mf("e2e-patcher", "Update", "", 2+i, dataFields))
	}
	m := NewModel([]tree.Kind{configmaps}, Capacity)
	m.List(0, list, t0)
	list = nil
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		u := updates[i%len(updates)]
		u.ResourceVersion = fmt.Sprint(objects + i + 1) // each one a new version
		m.Updated(0, u, t0.Add(time.Duration(i)))
	}
	b.StopTimer()
	updates = nil
	held := heap() - before
	b.ReportMetric(float64(held), "B-held")
	b.ReportMetric(float64(held)/objects, "B-held/object")
	if st := m.Stats(); st.Objects != objects || st.Kept != min(b.N, Capacity) {
		b.Fatalf("stats %+v", st)
	}
	runtime.KeepAlive(m)
}

// heap is the bytes the heap holds after a GC.
func heap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
