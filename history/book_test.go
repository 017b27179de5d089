package history

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/watch"
)

// bookPod is a pod as a watch delivers it: labels, annotations, two containers with env and ports, status
// conditions; %d makes each version's name and resourceVersion its own.
const bookPod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-%[1]d","namespace":"shop",
"uid":"0a1b2c3d-0000-4000-8000-%012[1]d","resourceVersion":"%[1]d","creationTimestamp":"2026-01-02T03:04:05Z",
"labels":{"app":"web","pod-template-hash":"5d8f7c9b6","tier":"frontend"},
"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-01-02T03:04:05Z","prometheus.io/scrape":"true"},
"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-5d8f7c9b6","uid":"f00","controller":true,"blockOwnerDeletion":true}]},
"spec":{"nodeName":"node-3","restartPolicy":"Always","terminationGracePeriodSeconds":30,
"containers":[{"name":"web","image":"registry.example/web:1.2.3","ports":[{"containerPort":8080,"protocol":"TCP"}],
"env":[{"name":"MODE","value":"production"},{"name":"LEVEL","value":"info"}],
"resources":{"requests":{"cpu":"100m","memory":"128Mi"},"limits":{"memory":"256Mi"}}},
{"name":"sidecar","image":"registry.example/proxy:4.5","args":["--port=9090","--upstream=127.0.0.1:8080"]}]},
"status":{"phase":"Running","podIP":"10.0.3.%[2]d","hostIP":"192.168.1.3","startTime":"2026-01-02T03:04:06Z",
"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-02T03:04:09Z"},
{"type":"ContainersReady","status":"True","lastTransitionTime":"2026-01-02T03:04:09Z"}],
"containerStatuses":[{"name":"web","ready":true,"restartCount":0,"started":true,"state":{"running":{"startedAt":"2026-01-02T03:04:08Z"}}}]}}`

// TestBookBoundMeasuredOnTheHeap fills a book far past its bound with pods decoded as a watch decodes
// them and measures what it keeps on the heap: the bound holds for the memory itself, and the estimate is
// within a margin of it (neither undercounting the maps nor keeping far fewer versions than the bound allows).
func TestBookBoundMeasuredOnTheHeap(t *testing.T) {
	const bound = 16 << 20
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	t0 := time.Unix(1_700_000_000, 0)
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	b := NewBook()
	b.maxBytes = bound
	before := heap()
	for i := 1; i <= 60_000; i++ {
		o := &unstructured.Unstructured{}
		if err := o.UnmarshalJSON(fmt.Appendf(nil, bookPod, i, i%250)); err != nil {
			t.Fatal(err)
		}
		b.Record(gvr, watch.ObjectEvent{Object: o}, t0)
	}
	b.mu.Lock()
	b.compact() // the arrival order's garbage is not what is measured
	b.mu.Unlock()
	measured := int(heap() - before)
	n, estimated := b.Stats()
	runtime.KeepAlive(b)
	t.Logf("%d versions kept: %d bytes estimated, %d measured on the heap (bound %d)", n, estimated, measured, bound)
	if n >= 60_000 {
		t.Fatalf("all %d versions kept: the bound never applied", n)
	}
	if measured > bound+bound/20 {
		t.Errorf("the book holds %d bytes on the heap, over its bound of %d (estimate %d)", measured, bound, estimated)
	}
	if measured < estimated*3/4 {
		t.Errorf("the book holds %d bytes on the heap, under 3/4 of its estimate %d: the estimate overcounts", measured, estimated)
	}
}

// TestBookBounds: 1000 versions of one object keep the newest 50; versions of many objects stay
// within the size bound, the oldest dropped first; a version read again (reconnect) is not kept twice.
func TestBookBounds(t *testing.T) {
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	version := func(name string, rv int, data string) watch.ObjectEvent {
		o := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": "shop", "resourceVersion": fmt.Sprint(rv)},
			"data":     map[string]any{"v": data}}}
		return watch.ObjectEvent{Object: o}
	}
	b := NewBook()
	for i := 1; i <= 1000; i++ {
		b.Record(gvr, version("one", i, fmt.Sprint(i)), t0.Add(time.Duration(i)*time.Second))
	}
	b.Record(gvr, version("one", 1000, "1000"), t0)
	vs := b.Versions(gvr, "shop", "one")
	if len(vs) != VersionsPerObject || vs[0].Obj.GetResourceVersion() != "951" || vs[49].Obj.GetResourceVersion() != "1000" {
		t.Fatalf("kept %d versions, %s…%s", len(vs), vs[0].Obj.GetResourceVersion(), vs[len(vs)-1].Obj.GetResourceVersion())
	}
	if n, _ := b.Stats(); n != 50 {
		t.Errorf("versions in all = %d", n)
	}
	b.mu.Lock()
	order := len(b.order)
	b.mu.Unlock()
	if order > 2*50+64 {
		t.Errorf("arrival order holds %d entries for 50 versions", order)
	}

	b = NewBook()
	b.maxBytes = 100 * (approxSize(version("x", 1, strings.Repeat("d", 1000)).Object.Object) + versionOverhead)
	for i := 1; i <= 1000; i++ {
		b.Record(gvr, version(fmt.Sprint("cm-", i%30), i, strings.Repeat("d", 1000)), t0)
	}
	n, size := b.Stats()
	if size > b.maxBytes || n < 90 || n > 100 {
		t.Errorf("%d versions of %d bytes kept, bound %d", n, size, b.maxBytes)
	}
	for i := 0; i < 30; i++ {
		for _, v := range b.Versions(gvr, "shop", fmt.Sprint("cm-", i)) {
			if rv, _ := strconv.Atoi(v.Obj.GetResourceVersion()); rv <= 1000-n {
				t.Fatalf("version %d kept, older than the newest %d", rv, n)
			}
		}
	}
}
