package watch

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// fakeObjectsAPI serves pods as a kube-apiserver serves them to a client that asks for protobuf first, or
// (jsonOnly) as a server or proxy that writes only JSON: lists (watch-list streams too, for the dynamic
// informer of the JSON path) and a watch to which send writes events; expire ends the open watch with 410
// Gone, so that the reflector relists. forbid answers every request 403. Safe for concurrent use.
type fakeObjectsAPI struct {
	srv *httptest.Server

	mu       sync.Mutex
	rv       int
	pods     map[string]*corev1.Pod
	jsonOnly bool
	forbid   bool
	// accepts and queries hold the Accept header and the query of every request, in order.
	accepts []string
	queries []url.Values

	events chan watch.Event
	expire chan struct{}
}

func newFakeObjectsAPI(t *testing.T, pods ...*corev1.Pod) *fakeObjectsAPI {
	f := &fakeObjectsAPI{rv: 100, pods: map[string]*corev1.Pod{}, events: make(chan watch.Event, 100),
		expire: make(chan struct{}, 1)}
	for _, p := range pods {
		f.put(p)
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// put stores p at the next resourceVersion and returns the stored copy.
func (f *fakeObjectsAPI) put(p *corev1.Pod) *corev1.Pod {
	f.mu.Lock()
	defer f.mu.Unlock()
	p = p.DeepCopy()
	f.rv++
	p.ResourceVersion = strconv.Itoa(f.rv)
	f.pods[p.Namespace+"/"+p.Name] = p
	return p
}

// send changes the server's pods and writes the event to the open watch: ADDED and MODIFIED store p,
// DELETED removes it.
func (f *fakeObjectsAPI) send(typ watch.EventType, p *corev1.Pod) {
	if typ == watch.Deleted {
		f.mu.Lock()
		delete(f.pods, p.Namespace+"/"+p.Name)
		f.rv++
		f.mu.Unlock()
	} else {
		p = f.put(p)
	}
	f.events <- watch.Event{Type: typ, Object: p}
}

// config is the client configuration of the server, as kscope connects.
func (f *fakeObjectsAPI) config() *rest.Config { return &rest.Config{Host: f.srv.URL} }

// dynamicClient is the JSON path's client of the server.
func (f *fakeObjectsAPI) dynamicClient(t testing.TB) dynamic.Interface {
	c, err := dynamic.NewForConfig(f.config())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wantsProtobuf tells whether r accepts protobuf, and the server may answer in it.
func (f *fakeObjectsAPI) wantsProtobuf(r *http.Request) bool {
	return !f.jsonOnly && strings.HasPrefix(r.Header.Get("Accept"), "application/vnd.kubernetes.protobuf")
}

func (f *fakeObjectsAPI) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.accepts, f.queries = append(f.accepts, r.Header.Get("Accept")), append(f.queries, r.URL.Query())
	forbid := f.forbid
	f.mu.Unlock()
	proto := f.wantsProtobuf(r)
	if forbid {
		st := &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusForbidden, Reason: metav1.StatusReasonForbidden,
			Message: `pods is forbidden: User "dev" cannot list resource "pods"`}
		f.write(w, http.StatusForbidden, proto, st)
		return
	}
	if r.URL.Query().Get("watch") == "true" {
		f.watch(w, r, proto)
		return
	}
	f.write(w, http.StatusOK, proto, f.list())
}

// list returns the server's pods, by key.
func (f *fakeObjectsAPI) list() *corev1.PodList {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.Itoa(f.rv)}}
	keys := make([]string, 0, len(f.pods))
	for k := range f.pods {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		l.Items = append(l.Items, *f.pods[k])
	}
	return l
}

// write writes obj with code, in protobuf or JSON.
func (f *fakeObjectsAPI) write(w http.ResponseWriter, code int, proto bool, obj runtime.Object) {
	w.Header().Set("Content-Type", wireType(proto))
	w.WriteHeader(code)
	_, _ = w.Write(wireBody(proto, obj))
}

// watch serves a watch: a watch-list's initial events (the JSON path's informer asks for one) and then the
// events sent, until the client goes or the watch expires.
func (f *fakeObjectsAPI) watch(w http.ResponseWriter, r *http.Request, proto bool) {
	w.Header().Set("Content-Type", wireType(proto)+";stream=watch")
	w.WriteHeader(http.StatusOK)
	enc := watchEncoder(w, proto)
	if r.URL.Query().Get("sendInitialEvents") == "true" {
		l := f.list()
		for i := range l.Items {
			enc(watch.Added, &l.Items[i])
		}
		enc(watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: l.ResourceVersion,
			Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}})
	}
	w.(http.Flusher).Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-f.expire:
			enc(watch.Error, &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusGone,
				Reason: metav1.StatusReasonExpired, Message: "too old resource version"})
			return
		case ev := <-f.events:
			enc(ev.Type, ev.Object)
			w.(http.Flusher).Flush()
		}
	}
}

// wireType is the content type of a body in protobuf or JSON.
func wireType(proto bool) string {
	if proto {
		return "application/vnd.kubernetes.protobuf"
	}
	return "application/json"
}

// wireBody encodes obj as the API server does, in protobuf or JSON.
func wireBody(proto bool, obj runtime.Object) []byte {
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), wireType(proto))
	var b bytes.Buffer
	gv := corev1.SchemeGroupVersion
	if _, ok := obj.(*metav1.Status); ok {
		gv = metav1.SchemeGroupVersion
	}
	if err := scheme.Codecs.EncoderForVersion(info.Serializer, gv).Encode(obj, &b); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// watchEncoder returns a function that writes one watch event to w as the API server frames it.
func watchEncoder(w io.Writer, proto bool) func(watch.EventType, runtime.Object) {
	info, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), wireType(proto))
	enc := streaming.NewEncoder(info.StreamSerializer.Framer.NewFrameWriter(w), info.StreamSerializer.Serializer)
	return func(typ watch.EventType, obj runtime.Object) {
		_ = enc.Encode(&metav1.WatchEvent{Type: string(typ), Object: runtime.RawExtension{Raw: wireBody(proto, obj)}})
	}
}
