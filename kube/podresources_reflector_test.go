package kube

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"

	"kscope/cluster"
	kwatch "kscope/watch"
)

// protobufPodServer is an apiserver of the pods of namespace shop in protobuf for the informer test: its lists are
// lists[0], then lists[1] for every later one; its watches are watches[0], then watches[1] for every later
// one, each held open after its events until the client goes. It records the requests' queries.
type protobufPodServer struct {
	t       *testing.T
	lists   [2]*corev1.PodList
	watches [2][]watch.Event

	mu              sync.Mutex
	listQ, watchQ   []url.Values
	listAc, watchAc []string
}

func (s *protobufPodServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/v1/namespaces/shop/pods" {
		s.t.Errorf("request of %s", r.URL.Path)
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	s.mu.Lock()
	isWatch := q.Get("watch") == "true"
	n := len(s.listQ)
	if isWatch {
		n = len(s.watchQ)
		s.watchQ, s.watchAc = append(s.watchQ, q), append(s.watchAc, r.Header.Get("Accept"))
	} else {
		s.listQ, s.listAc = append(s.listQ, q), append(s.listAc, r.Header.Get("Accept"))
	}
	s.mu.Unlock()
	n = min(n, 1)
	w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf")
	if !isWatch {
		_, _ = w.Write(encodeBody(s.t, s.lists[n]))
		return
	}
	w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf;stream=watch")
	body, ends := encodeWatch(s.t, s.watches[n])
	start := 0
	for _, end := range ends {
		_, _ = w.Write(body[start:end])
		w.(http.Flusher).Flush()
		start = end
	}
	if len(s.watches[n]) == 0 || s.watches[n][len(s.watches[n])-1].Type != watch.Error {
		<-r.Context().Done()
	}
}

// requests returns copies of the queries and Accept headers seen so far.
func (s *protobufPodServer) requests() (lists, watches []url.Values, listAccept, watchAccept []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]url.Values(nil), s.listQ...), append([]url.Values(nil), s.watchQ...),
		append([]string(nil), s.listAc...), append([]string(nil), s.watchAc...)
}

// waitFor polls cond until it holds, failing t after 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPodResourceReflector runs the reader's reflector against a fake apiserver: it lists (with the view's
// selectors, in protobuf), watches from the list's resourceVersion with bookmarks, applies a MODIFIED event,
// relists after an ERROR event with 410 Gone (a pod gone meanwhile leaves the store), then applies a DELETED
// event.
func TestPodResourceReflector(t *testing.T) {
	cpu := func(v string) corev1.PodSpec {
		return corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: res(map[string]string{"cpu": v}, nil)}}}
	}
	a, b, c := fullPod("shop", "a", "5", cpu("100m")), fullPod("shop", "b", "6", cpu("200m")), fullPod("shop", "c", "7", cpu("300m"))
	a2 := fullPod("shop", "a", "11", cpu("1.5"))
	srv := &protobufPodServer{t: t,
		lists: [2]*corev1.PodList{
			{ListMeta: metav1.ListMeta{ResourceVersion: "10"}, Items: []corev1.Pod{*a, *b, *c}},
			{ListMeta: metav1.ListMeta{ResourceVersion: "30"}, Items: []corev1.Pod{*a2, *c}},
		},
		watches: [2][]watch.Event{{
			{Type: watch.Modified, Object: a2},
			{Type: watch.Bookmark, Object: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "12"}}},
			{Type: watch.Error, Object: &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusGone,
				Reason: metav1.StatusReasonExpired, Message: "too old resource version: 12 (29)"}},
		}, {
			{Type: watch.Deleted, Object: fullPod("shop", "c", "31", cpu("300m"))},
		}},
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	cs, err := (&Cluster{cfg: &rest.Config{Host: ts.URL}}).protobufClientset()
	if err != nil {
		t.Fatal(err)
	}
	r := newPodResourceStore()
	refl := newPodResourceReflector(cs.CoreV1().RESTClient(), kwatch.Spec{Namespaced: true, Namespace: "shop",
		LabelSelector: "app=web", FieldSelector: "status.phase=Running"}, r)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go refl.RunWithContext(ctx)
	select {
	case <-r.Synced():
	case <-time.After(10 * time.Second):
		t.Fatal("never synced")
	}
	get := func(name string) (int64, bool) {
		p, ok := r.Get("shop/" + name)
		return p.RequestCPU, ok
	}
	waitFor(t, "a's new requests from the watch", func() bool { v, ok := get("a"); return ok && v == 1500 })
	waitFor(t, "b gone after the relist", func() bool { _, ok := get("b"); return !ok })
	waitFor(t, "c deleted by the second watch", func() bool { _, ok := get("c"); return !ok })
	if v, ok := get("a"); !ok || v != 1500 {
		t.Errorf("a: %d %v", v, ok)
	}
	if p, ok := r.Get("shop/a"); !ok || p != (cluster.PodResources{RequestCPU: 1500}) {
		t.Errorf("a: %+v", p)
	}

	if keys := r.ListKeys(); len(keys) != 1 || keys[0] != "shop/a" {
		t.Errorf("the store holds %v, want shop/a only", keys)
	}

	lists, watches, listAccept, watchAccept := srv.requests()
	if len(lists) != 2 || len(watches) < 2 {
		t.Fatalf("%d lists and %d watches, want 2 and 2", len(lists), len(watches))
	}
	for _, q := range append(lists, watches...) {
		if q.Get("labelSelector") != "app=web" || q.Get("fieldSelector") != "status.phase=Running" {
			t.Errorf("query %v without the view's selectors", q)
		}
	}
	if w := watches[0]; w.Get("resourceVersion") != "10" || w.Get("allowWatchBookmarks") != "true" || w.Get("timeoutSeconds") == "" ||
		w.Get("sendInitialEvents") != "" {
		t.Errorf("first watch %v", w)
	}
	if rv := watches[1].Get("resourceVersion"); rv != "30" {
		t.Errorf("the watch after the relist starts at %q, want 30", rv)
	}
	if listAccept[0] != podListAccept || watchAccept[0] != podWatchAccept {
		t.Errorf("Accept %q and %q", listAccept[0], watchAccept[0])
	}
}
