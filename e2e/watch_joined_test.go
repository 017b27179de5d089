//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"

	"kscope/watch"
)

// TestAllNamespacesJoinedPages: an all-namespaces view asks for the pages of its first list after the first
// one as rows without objects and a protobuf list of the objects' metadata, and joins them. On the real
// apiserver every row then carries its own object's namespace, UID, resourceVersion, labels, creation time
// and cells: 700 ConfigMaps in two namespaces, each with a label and a number of keys of its own.
func TestAllNamespacesJoinedPages(t *testing.T) {
	parallel(t)
	nsA, nsB := testNamespace(t), testNamespace(t)
	sel := "kscope-join=" + randomSuffix()
	cfg := restConfig(t, "admin")
	cfg.QPS, cfg.Burst = 200, 400
	cs := kubernetes.NewForConfigOrDie(cfg)
	createConfigMaps(t, cs, 700, func(i int) *corev1.ConfigMap {
		ns := nsA
		if i%2 == 1 {
			ns = nsB
		}
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%04d", i), Namespace: ns,
			Labels: map[string]string{"kscope-join": sel[len("kscope-join="):], "index": fmt.Sprint(i)}}}
		for k := range i % 4 {
			if cm.Data == nil {
				cm.Data = map[string]string{}
			}
			cm.Data[fmt.Sprintf("k%d", k)] = "v"
		}
		return cm
	})

	src := startSource(t, restConfig(t, "admin"), watch.Spec{GVR: schema.GroupVersionResource{Version: "v1",
		Resource: "configmaps"}, Namespaced: true, LabelSelector: sel})
	if got := src.Pulse().FirstList.JoinedPages; got < 1 {
		t.Fatalf("the first list joined %d pages, want at least 1 (700 rows: 250, then 450)", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	list, err := cs.CoreV1().ConfigMaps("").List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*corev1.ConfigMap{}
	for i := range list.Items {
		want[list.Items[i].Namespace+"/"+list.Items[i].Name] = &list.Items[i]
	}
	dataCol := -1
	for i, c := range src.Columns() {
		if c.Name == "Data" {
			dataCol = i
		}
	}
	rows := src.Snapshot(watch.Query{SortColumn: -1}).Rows
	if len(rows) != len(want) || dataCol < 0 {
		t.Fatalf("%d rows for %d ConfigMaps; Data column %d", len(rows), len(want), dataCol)
	}
	for _, r := range rows {
		cm, ok := want[r.Key]
		switch {
		case !ok:
			t.Fatalf("row %s: no such ConfigMap", r.Key)
		case r.Namespace != cm.Namespace || r.Cells[0] != cm.Namespace || r.Name != cm.Name:
			t.Fatalf("row %s: namespace %q (cell %q), name %q", r.Key, r.Namespace, r.Cells[0], r.Name)
		case r.UID != cm.UID || r.ResourceVersion != cm.ResourceVersion || !r.Created.Equal(cm.CreationTimestamp.Time):
			t.Fatalf("row %s: uid %s rv %s created %v; the object's %s %s %v", r.Key, r.UID, r.ResourceVersion,
				r.Created, cm.UID, cm.ResourceVersion, cm.CreationTimestamp.Time)
		case !maps.Equal(r.Labels, cm.Labels):
			t.Fatalf("row %s: labels %v, the object's %v", r.Key, r.Labels, cm.Labels)
		case r.Cells[dataCol] != fmt.Sprint(len(cm.Data)):
			t.Fatalf("row %s: Data %q, the object has %d keys", r.Key, r.Cells[dataCol], len(cm.Data))
		}
	}
}

// createConfigMaps creates the n ConfigMaps build returns, eight at a time.
func createConfigMaps(t *testing.T, cs kubernetes.Interface, n int, build func(int) *corev1.ConfigMap) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	next := make(chan int)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				cm := build(i)
				if _, err := cs.CoreV1().ConfigMaps(cm.Namespace).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
					errs <- fmt.Errorf("create %s/%s: %w", cm.Namespace, cm.Name, err)
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
