package watch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

const benchRows = 50000

// reportCPU reports the CPU time per operation since start: on a shared machine it is steadier than wall time.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// podTableJSON returns a Table list of n pods as the server sends it with includeObject=Metadata.
func podTableJSON(n int) []byte { return benchPodTable(n, true) }

// benchPodTable returns a Table list of n pods in namespace bench, with each row's object metadata
// (includeObject=Metadata) or without (includeObject=None).
func benchPodTable(n int, metadata bool) []byte {
	var b bytes.Buffer
	b.WriteString(`{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"999999"},"columnDefinitions":[
{"name":"Name","type":"string","format":"name","description":"Name must be unique within a namespace.","priority":0},
{"name":"Ready","type":"string","format":"","description":"The aggregate readiness state of this pod for accepting traffic.","priority":0},
{"name":"Status","type":"string","format":"","description":"The aggregate status of the containers in this pod.","priority":0},
{"name":"Restarts","type":"string","format":"","description":"The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.","priority":0},
{"name":"Age","type":"string","format":"","description":"CreationTimestamp is a timestamp representing the server time when this object was created.","priority":0},
{"name":"IP","type":"string","format":"","description":"The IP address assigned to the pod","priority":1},
{"name":"Node","type":"string","format":"","description":"The name of the node where the pod is running","priority":1},
{"name":"Nominated Node","type":"string","format":"","description":"The name of the node where the pod is nominated","priority":1},
{"name":"Readiness Gates","type":"string","format":"","description":"The readiness gates of the pod","priority":1}],"rows":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		cells := fmt.Sprintf(`{"cells":["bench-pod-%d","1/1","Running","0","12m","10.%d.%d.%d","kwok-node-%d","<none>","<none>"]`,
			i, i/65536, i/256%256, i%256, i%50)
		if !metadata {
			b.WriteString(cells + "}")
			continue
		}
		fmt.Fprintf(&b, cells+`,`+
			`"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"bench-pod-%d",`+
			`"generateName":"bench-pod-","namespace":"bench","uid":"5b1c6f7e-0000-4000-8000-%012d","resourceVersion":"%d",`+
			`"creationTimestamp":"2026-11-29T18:00:00Z","labels":{"app":"bench","pod-template-hash":"7d4b9c8f6"},`+
			`"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"bench-7d4b9c8f6","uid":"aaaa","controller":true,"blockOwnerDeletion":true}],`+
			`"managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2026-11-29T18:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{}},"f:ownerReferences":{}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:name":{}}}}}},`+
			`{"manager":"kwok","operation":"Update","apiVersion":"v1","time":"2026-11-29T18:00:01Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{},"f:phase":{},"f:podIP":{}}},"subresource":"status"}]}}}`,
			i, i, 1000+i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkConvertList decodes and converts a 50k-row Table list (one op = the whole list), as listed with
// each row's object metadata (all namespaces) and without (includeObject=None: one namespace).
func BenchmarkConvertList(b *testing.B) {
	for _, mode := range []struct {
		name     string
		metadata bool
	}{{"Metadata", true}, {"None", false}} {
		body := benchPodTable(benchRows, mode.metadata)
		b.Run(mode.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				c := newConverter(false, nil)
				c.namespace = "bench"
				_, rows, err := decodeList(bytes.NewReader(body), c)
				if err != nil || len(rows) != benchRows {
					b.Fatal(err, len(rows))
				}
			}
			reportCPU(b, cpu0)
		})
	}
}

func benchSource(b *testing.B) (*rowStore, []Column) {
	body := podTableJSON(benchRows)
	c := newConverter(false, nil)
	_, rows, err := decodeList(bytes.NewReader(body), c)
	if err != nil {
		b.Fatal(err)
	}
	s := newRowStore()
	for _, r := range rows {
		s.put(r.get())
	}
	return s, c.Columns()
}

// BenchmarkSortFull sorts 50k rows by the Name column (natural order) from scratch.
func BenchmarkSortFull(b *testing.B) {
	s, cols := benchSource(b)
	all := s.since(0, false).all
	for _, col := range []int{0, 4, 5} {
		b.Run(cols[col].Name, func(b *testing.B) {
			o := newRowOrder(Query{SortColumn: col}, cols)
			cpu0 := cpuTime()
			for b.Loop() {
				sortRows(all, o)
			}
			reportCPU(b, cpu0)
		})
	}
}

// BenchmarkFilter filters 50k rows with a substring, a regular expression and a label selector.
func BenchmarkFilter(b *testing.B) {
	s, _ := benchSource(b)
	all := s.since(0, false).all
	for _, text := range []string{"bench-pod-4999", "node-(3|4)$", "-l app=bench,pod-template-hash!=x"} {
		f, err := ParseFilter(text)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(text, func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				n := 0
				for _, r := range all {
					if f.Match(r) {
						n++
					}
				}
			}
			reportCPU(b, cpu0)
		})
	}
}

// BenchmarkSnapshotAfterUpdate measures a Snapshot at 50k rows after one row changed (sorted by Name, and
// filtered), against the full sort of BenchmarkSortFull.
func BenchmarkSnapshotAfterUpdate(b *testing.B) {
	for _, filter := range []string{"", "Running"} {
		b.Run("filter="+filter, func(b *testing.B) {
			s, cols := benchSource(b)
			f, _ := ParseFilter(filter)
			q := Query{SortColumn: 0, Filter: f}
			var snaps snapshotter
			snaps.snapshot(s, q, cols, 1)
			i := 0
			cpu0 := cpuTime()
			for b.Loop() {
				i = bumpRows(s, i, 1)
				if snap := snaps.snapshot(s, q, cols, 1); snap.Total != benchRows {
					b.Fatal(snap.Total)
				}
			}
			reportCPU(b, cpu0)
		})
	}
}

// BenchmarkSnapshotNewColumn measures the Snapshot that follows a key sorting 50k rows by another column
// (IP) than the one on show (Name): the rows are read from the store and sorted afresh.
func BenchmarkSnapshotNewColumn(b *testing.B) {
	s, cols := benchSource(b)
	byName := Query{SortColumn: 0}
	cpu0 := cpuTime()
	for b.Loop() {
		b.StopTimer()
		var snaps snapshotter
		snaps.snapshot(s, byName, cols, 1)
		b.StartTimer()
		if snap := snaps.snapshot(s, Query{SortColumn: 5}, cols, 1); snap.Total != benchRows {
			b.Fatal(snap.Total)
		}
	}
	reportCPU(b, cpu0)
}

// maxBytesPerRow is the live heap a table may hold per row in all: the informer's store, kscope's row store
// and the snapshot the UI reads. The memory target is 120 MB of RSS at 50k rows; the collector lets the heap
// grow to twice the live data (GOGC=100), which leaves about 1.2 KB of live heap a row, less what the rest of
// the process holds. Measured 2026-12-01: 751 B (all namespaces), 782 B (one namespace, filled).
const maxBytesPerRow = 900

// TestBytesPerRow: a Source synced on a 50k-row Table list holds at most maxBytesPerRow per row: everything
// it keeps (informer store and indexer, row store, change log, a sorted snapshot), measured as heap growth.
// In one namespace the rows are listed without their metadata and filled in behind: measured once every row
// has its metadata, when the informer and the row store must share each row rather than hold one each.
func TestBytesPerRow(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 50k-row list")
	}
	for _, namespace := range []string{"", "bench"} {
		t.Run("namespace="+namespace, func(t *testing.T) { testBytesPerRow(t, namespace) })
	}
}

func testBytesPerRow(t *testing.T, namespace string) {
	full, bare := benchPodTable(benchRows, true), benchPodTable(benchRows, false)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("watch") == "true" {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done() // an open watch with nothing to say
			return
		}
		if r.URL.Query().Get("includeObject") == "None" {
			_, _ = w.Write(bare)
			return
		}
		_, _ = w.Write(full)
	}))
	defer srv.Close()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	src, err := NewSource(&rest.Config{Host: srv.URL}, Spec{GVR: schema.GroupVersionResource{Version: "v1",
		Resource: "pods"}, Namespaced: true, Namespace: namespace})
	if err != nil {
		t.Fatal(err)
	}
	src.Start(context.Background())
	defer src.Stop()
	for src.State().Phase != Synced || !everyRowFilled(src) {
		select {
		case <-src.Notify():
		case <-time.After(time.Minute):
			t.Fatalf("not synced and filled after a minute: %s %v", src.State().Phase, src.State().Err)
		}
	}
	snap := src.Snapshot(Query{SortColumn: -1})
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / benchRows
	t.Logf("%.0f bytes per row held by a synced Source (informer, row store, snapshot) at %d rows", per, len(snap.Rows))
	if len(snap.Rows) != benchRows {
		t.Fatalf("%d rows, want %d", len(snap.Rows), benchRows)
	}
	if per > maxBytesPerRow {
		t.Errorf("%.0f bytes per row, want at most %d", per, maxBytesPerRow)
	}
	runtime.KeepAlive(full)
	runtime.KeepAlive(bare)
	runtime.KeepAlive(snap)
}

// everyRowFilled tells whether src holds benchRows rows, each with its metadata.
func everyRowFilled(src *Source) bool {
	snap := src.Snapshot(Query{SortColumn: -1})
	if len(snap.Rows) != benchRows {
		return false
	}
	for _, r := range snap.Rows {
		if r.UID == "" {
			return false
		}
	}
	return true
}

// BenchmarkSnapshotAfterFill measures a Snapshot at 50k rows after 2,000 rows were replaced by versions that
// sort where they were (as the metadata fill completes rows, a page at a time, between two refreshes), in the
// natural order and by Name: each replaced row is found by a binary search.
func BenchmarkSnapshotAfterFill(b *testing.B) {
	for _, col := range []int{-1, 0} {
		b.Run(fmt.Sprintf("column=%d", col), func(b *testing.B) {
			s, cols := benchSource(b)
			q := Query{SortColumn: col}
			var snaps snapshotter
			snaps.snapshot(s, q, cols, 1)
			i := 0
			cpu0 := cpuTime()
			for b.Loop() {
				i = bumpRows(s, i, 2000)
				if snap := snaps.snapshot(s, q, cols, 1); snap.Total != benchRows {
					b.Fatal(snap.Total)
				}
			}
			reportCPU(b, cpu0)
		})
	}
}

// bumpRows replaces n rows of the bench store s, the rows after the i-th (wrapping), with copies at a new
// resourceVersion (their cells unchanged, so they sort where they were), and returns i+n.
func bumpRows(s *rowStore, i, n int) int {
	for range n {
		i++
		r, _ := s.get(fmt.Sprintf("bench/bench-pod-%d", i%benchRows))
		c := *r
		c.ResourceVersion = fmt.Sprint(2000000 + i)
		s.put(&c)
	}
	return i
}
