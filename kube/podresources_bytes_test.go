package kube

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	kwatch "kscope/watch"
)

const (
	// bytesPods is the number of pods the bytes-per-pod measures keep.
	bytesPods = 20000
	// maxBytesPerPodRecord bounds what a decoded podResource costs: the record (80 bytes), its name and
	// resourceVersion strings and its slot in the list (the former transform kept about 300 bytes a pod).
	maxBytesPerPodRecord = 160
	// maxBytesPerSyncedPod bounds what a synced informer holds a pod: its podResource and the indexer's key
	// and map slot.
	maxBytesPerSyncedPod = 260
)

// bytesPodList returns a list of bytesPods pods of one namespace as the devcluster's bench pods look
// (kubectl-created, with labels, managed fields and a status), encoded as the apiserver does.
func bytesPodList(t testing.TB) []byte {
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "900000"}}
	spec := corev1.PodSpec{Containers: []corev1.Container{{Name: "app",
		Resources: res(map[string]string{"cpu": "10m", "memory": "16Mi"}, map[string]string{"cpu": "100m", "memory": "64Mi"})}}}
	for i := range bytesPods {
		list.Items = append(list.Items, *fullPod("bench-50000", fmt.Sprintf("pause-%05d-7f9c4", i), fmt.Sprint(100000+i), spec))
	}
	return encodeBody(t, list)
}

// heapAfterGC returns the heap in use after a collection.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestBytesPerPodResource measures what the pod resources informer keeps a pod: decoded records alone, and
// a synced informer's store.
func TestBytesPerPodResource(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes a 20k-pod list")
	}
	body := bytesPodList(t)
	before := heapAfterGC()
	list, err := decodePodList(bytes.NewReader(body), podDecoder{texts: &namespaceTexts{}})
	if err != nil {
		t.Fatal(err)
	}
	per := float64(heapAfterGC()-before) / bytesPods
	t.Logf("%.0f bytes per decoded podResource (%d pods; the list body is %d bytes a pod)", per, len(list.Items),
		len(body)/bytesPods)
	if len(list.Items) != bytesPods {
		t.Fatalf("%d pods", len(list.Items))
	}
	if per > maxBytesPerPodRecord {
		t.Errorf("%.0f bytes per podResource, want at most %d", per, maxBytesPerPodRecord)
	}
	runtime.KeepAlive(list)
	list = nil

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("watch") == "true" {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done() // an open watch with nothing to say
			return
		}
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	cs, err := (&Cluster{cfg: &rest.Config{Host: srv.URL}}).protobufClientset()
	if err != nil {
		t.Fatal(err)
	}
	before = heapAfterGC()
	store := newPodResourceStore()
	refl := newPodResourceReflector(cs.CoreV1().RESTClient(), kwatch.Spec{Namespaced: true, Namespace: "bench-50000"}, store)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go refl.RunWithContext(ctx)
	select {
	case <-store.Synced():
	case <-time.After(time.Minute):
		t.Fatal("never synced")
	}
	per = float64(heapAfterGC()-before) / bytesPods
	t.Logf("%.0f bytes per pod held by a synced reader", per)
	if n := len(store.ListKeys()); n != bytesPods {
		t.Fatalf("%d pods in the store", n)
	}
	if per > maxBytesPerSyncedPod {
		t.Errorf("%.0f bytes per pod in a synced reader, want at most %d", per, maxBytesPerSyncedPod)
	}
	runtime.KeepAlive(refl)
}

// BenchmarkDecodePodList decodes a list of bytesPods pods as the pod resources informer's ListWatch does.
func BenchmarkDecodePodList(b *testing.B) {
	body := bytesPodList(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodePodList(bytes.NewReader(body), podDecoder{texts: &namespaceTexts{}}); err != nil {
			b.Fatal(err)
		}
	}
}
