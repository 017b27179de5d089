package watch

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// noEndAPI serves pods to a dynamic client as a server that never ends a streamed list: a watch with
// sendInitialEvents sends the pod and then nothing (no initial-events-end bookmark) until the client goes;
// a plain list and a plain watch are served as usual. It counts each kind of request.
type noEndAPI struct {
	// end makes it a server that does end its streamed lists.
	end                      bool
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
		if f.end {
			fmt.Fprint(w, `{"type":"BOOKMARK","object":{"apiVersion":"v1","kind":"Pod","metadata":{"resourceVersion":"10","annotations":{"k8s.io/initial-events-end":"true"}}}}`+"\n")
		}
	}
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

func (f *noEndAPI) counts() (streamed, lists, watches int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.streamed, f.lists, f.watches
}

// TestObjectSourceFallsBackWhenAStreamedListNeverEnds: the informer of an ObjectSource streams its first list;
// the server never sends the bookmark that ends it. Within the bound the source gives up on the stream, lists
// instead (synced, its row shown), says so, and asks for no further streamed list.
func TestObjectSourceFallsBackWhenAStreamedListNeverEnds(t *testing.T) {
	bound := streamEndBound
	streamEndBound = 300 * time.Millisecond
	t.Cleanup(func() { streamEndBound = bound })
	f := &noEndAPI{}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	client, err := dynamic.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewObjectSource(client, Spec{GVR: podsGVR(), Namespaced: true, Namespace: "shop", Columns: objectColumns(t)})
	if err != nil {
		t.Fatal(err)
	}
	src.Start(t.Context())
	defer src.Stop()
	waitFor(t, "synced with the listed row", func() bool { return src.State().Phase == Synced && src.Len() == 1 })
	if st := src.State(); st.Note != fellBackNote {
		t.Errorf("note %q, want %q", st.Note, fellBackNote)
	}
	streamed, lists, _ := f.counts()
	if streamed != 1 || lists < 1 {
		t.Errorf("%d streamed lists and %d lists, want the one stream, then lists", streamed, lists)
	}
	waitFor(t, "the watch after the list", func() bool { _, _, w := f.counts(); return w >= 1 })
	if streamed, _, _ := f.counts(); streamed != 1 {
		t.Errorf("%d streamed lists after the fallback, want no more", streamed)
	}
}

// TestObjectSourceKeepsAStreamedListThatEnds: a server that ends its streamed list with the bookmark is
// streamed from, past the bound, with no list and no note.
func TestObjectSourceKeepsAStreamedListThatEnds(t *testing.T) {
	bound := streamEndBound
	streamEndBound = 300 * time.Millisecond
	t.Cleanup(func() { streamEndBound = bound })
	f := &noEndAPI{end: true}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	client, err := dynamic.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewObjectSource(client, Spec{GVR: podsGVR(), Namespaced: true, Namespace: "shop", Columns: objectColumns(t)})
	if err != nil {
		t.Fatal(err)
	}
	src.Start(t.Context())
	defer src.Stop()
	waitFor(t, "synced with the streamed row", func() bool { return src.State().Phase == Synced && src.Len() == 1 })
	time.Sleep(3 * streamEndBound) // past the bound: the stream, now a plain watch, stays
	if streamed, lists, _ := f.counts(); streamed != 1 || lists != 0 || src.State().Note != "" {
		t.Errorf("%d streamed lists, %d lists, note %q; want the one stream, no list, no note", streamed, lists, src.State().Note)
	}
}
