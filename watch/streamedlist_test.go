package watch

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// client-go's reflector streams its first list as a watch (sendInitialEvents; WatchListClient is on by default
// in 0.37) unless its ListWatch says it cannot, and then waits for the BOOKMARK annotated
// k8s.io/initial-events-end: from a server that never sends it (an aggregated API that does not know the
// protocol, a proxy that strips bookmarks) it would wait for the watch's timeout, five to ten minutes, and
// stream again, the view empty meanwhile. Every source a view of kscope is made of says it cannot (Source,
// the protobuf ListWatch of an ObjectSource, the tree's and the change feed's): they list, then watch.

// noEndAPI serves pods as a server that never ends a streamed list: a watch with
// sendInitialEvents sends the pod and then nothing (no initial-events-end bookmark) until the client goes;
// a plain list and a plain watch are served as usual. It counts each kind of request.
type noEndAPI struct {
	mu                       sync.Mutex
	streamed, lists, watches int
}

const noEndPod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"shop","uid":"u-a","resourceVersion":"10","creationTimestamp":"2026-01-01T00:00:00Z"},"spec":{"containers":[{"name":"c","image":"nginx:1.27"}]}}`

func (f *noEndAPI) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	q := r.URL.Query()
	f.mu.Lock()
	switch {
	case q.Get("watch") == "true" && q.Get("sendInitialEvents") == "true":
		f.streamed++
	case q.Get("watch") == "true":
		f.watches++
	default:
		f.lists++
	}
	f.mu.Unlock()
	if q.Get("watch") != "true" {
		fmt.Fprintf(w, `{"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"10"},"items":[%s]}`, noEndPod)
		return
	}
	if q.Get("sendInitialEvents") == "true" {
		fmt.Fprintf(w, `{"type":"ADDED","object":%s}`+"\n", noEndPod)
	}
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

func (f *noEndAPI) counts() (streamed, lists, watches int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.streamed, f.lists, f.watches
}

// TestViewSourcesNeverWaitForAStreamedListsEnd: the sources kscope's views are made of (a table's Source, an
// ObjectSource made with its REST config, as kube.Cluster.NewSource makes them) list and then watch: a server
// that never ends a streamed list is never asked for one, and they sync.
func TestViewSourcesNeverWaitForAStreamedListsEnd(t *testing.T) {
	f := &noEndAPI{}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	cfg := &rest.Config{Host: srv.URL}
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewObjectSourceWithConfig(cfg, client, Spec{GVR: podsGVR(), Namespaced: true, Namespace: "shop", Columns: objectColumns(t)})
	if err != nil {
		t.Fatal(err)
	}
	src.Start(t.Context())
	defer src.Stop()
	waitFor(t, "synced with the listed row", func() bool { return src.State().Phase == Synced && src.Len() == 1 })
	waitFor(t, "the watch after the list", func() bool { _, _, w := f.counts(); return w >= 1 })
	table, err := NewSource(cfg, Spec{GVR: podsGVR(), Namespaced: true, Namespace: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	table.Start(t.Context())
	defer table.Stop()
	waitFor(t, "the table synced with the listed row", func() bool { return table.State().Phase == Synced && table.Len() == 1 })
	waitFor(t, "the table's watch", func() bool { _, _, w := f.counts(); return w >= 2 })
	if streamed, lists, _ := f.counts(); streamed != 0 || lists < 2 {
		t.Errorf("%d streamed lists, %d lists; want lists only", streamed, lists)
	}
}
