package watch

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
)

// fakeAPI serves pods as a kube-apiserver serves Table lists (includeObject None or Metadata), metadata lists
// (protobuf PartialObjectMetadataList) and watches of one-row Tables, for tests of a whole Source. Changes made with set are sent to the open watch when asked;
// expire ends that watch with 410 Gone, so that the reflector relists. It is safe for concurrent use.
type fakeAPI struct {
	srv *httptest.Server

	mu   sync.Mutex
	rv   int
	pods map[string]*fakePod // by "namespace/name"
	// lists counts list requests by includeObject; watches counts watch requests.
	lists   map[string]int
	watches int
	// ageShift is added to every age the server prints: each list moves it on, as time moves AGE.
	ageShift time.Duration
	// fillGate, when set, holds metadata lists (the metadata fill of a one-namespace view) until closed.
	fillGate chan struct{}
	// pageGate, when set, holds the requests for a list's later pages (continue) and for a whole list not
	// older than a first page (no limit, resourceVersionMatch=NotOlderThan) until closed; pageFails such
	// requests answer 500 first. pages counts them.
	pageGate  chan struct{}
	pageFails int
	pages     int
	// misorderMetadata sends the objects of metadata lists (PartialObjectMetadataList, protobuf) in reverse.
	misorderMetadata bool
	// skewWholeMetadata answers a metadata list not older than a version (no limit, no continue token) at a
	// resourceVersion one past the Table's: as a server whose watch cache moved on between a pair's halves.
	skewWholeMetadata bool
	// queries holds the query of every list request, in order.
	queries []url.Values

	events chan []byte   // events for the open watch
	expire chan struct{} // ends the open watch with 410 Gone
}

type fakePod struct {
	namespace, name, status string
	uid                     types.UID
	rv                      int
	labels                  map[string]string
	created                 time.Time
}

var fakeColumns = []metav1.TableColumnDefinition{
	{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace."},
	{Name: "Status", Type: "string", Description: "The aggregate status of the containers in this pod."},
	{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time."},
}

func newFakeAPI(t *testing.T) *fakeAPI {
	f := &fakeAPI{rv: 100, pods: map[string]*fakePod{}, lists: map[string]int{},
		events: make(chan []byte, 100), expire: make(chan struct{}, 1)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// source returns a Source on f for namespace ("" for all namespaces), stopped when the test ends.
func (f *fakeAPI) source(t *testing.T, namespace string) *Source {
	t.Helper()
	s, err := NewSource(&rest.Config{Host: f.srv.URL},
		Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}, Namespaced: true, Namespace: namespace})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// set creates or changes a pod (created 100 s ago); with event, the open watch is told.
func (f *fakeAPI) set(key, status string, labels map[string]string, event bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rv++
	ns, name, _ := strings.Cut(key, "/")
	p, ok := f.pods[key]
	typ := "MODIFIED"
	if !ok {
		typ = "ADDED"
		p = &fakePod{namespace: ns, name: name, uid: types.UID("uid-" + name), created: time.Now().Add(-100 * time.Second)}
		f.pods[key] = p
	}
	p.status, p.labels, p.rv = status, labels, f.rv
	if event {
		t := f.tableLocked([]*fakePod{p}, metav1.IncludeMetadata, false)
		b, _ := json.Marshal(map[string]any{"type": typ, "object": t})
		f.events <- b
	}
}

// count returns the number of list requests with includeObject include.
func (f *fakeAPI) count(include metav1.IncludeObjectPolicy) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.lists[string(include)]
}

// tableLocked returns pods as the server's Table; the caller holds f.mu.
func (f *fakeAPI) tableLocked(pods []*fakePod, include metav1.IncludeObjectPolicy, columns bool) *metav1.Table {
	t := &metav1.Table{TypeMeta: metav1.TypeMeta{Kind: "Table", APIVersion: "meta.k8s.io/v1"},
		ListMeta: metav1.ListMeta{ResourceVersion: fmt.Sprint(f.rv)}}
	if columns {
		t.ColumnDefinitions = fakeColumns
	}
	for _, p := range pods {
		row := metav1.TableRow{Cells: []any{p.name, p.status, FormatAge(time.Since(p.created) + f.ageShift)}}
		if include != metav1.IncludeNone {
			m := metav1.PartialObjectMetadata{TypeMeta: metav1.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1"},
				ObjectMeta: metav1.ObjectMeta{Name: p.name, Namespace: p.namespace, UID: p.uid,
					ResourceVersion: fmt.Sprint(p.rv), CreationTimestamp: metav1.NewTime(p.created), Labels: p.labels}}
			b, _ := json.Marshal(m)
			row.Object = runtime.RawExtension{Raw: b}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	ns := ""
	if rest, ok := strings.CutPrefix(r.URL.Path, "/api/v1/namespaces/"); ok {
		ns, _, _ = strings.Cut(rest, "/")
	}
	if r.URL.Query().Get("watch") == "true" {
		f.watch(w, r)
		return
	}
	include := metav1.IncludeObjectPolicy(r.URL.Query().Get("includeObject"))
	after := r.URL.Query().Get("continue")
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	whole := after == "" && limit == 0 && r.URL.Query().Get("resourceVersionMatch") == "NotOlderThan"
	rest := after != "" || whole
	f.mu.Lock()
	f.queries = append(f.queries, r.URL.Query())
	f.lists[string(include)]++
	gate := f.fillGate
	if rest {
		f.pages++
		gate = f.pageGate
	}
	f.mu.Unlock()
	if rest && gate != nil {
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
		gate = nil
	}
	f.mu.Lock()
	fail := rest && f.pageFails > 0
	if fail {
		f.pageFails--
	}
	f.mu.Unlock()
	if fail {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","code":500,"message":"page lost"}`))
		return
	}
	if include == metav1.IncludeMetadata && ns != "" && gate != nil {
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	}
	f.mu.Lock()
	if include == metav1.IncludeNone {
		f.ageShift += 37 * time.Second
	}
	var pods []*fakePod
	for _, p := range f.pods {
		if (ns == "" || p.namespace == ns) && p.name > after {
			pods = append(pods, p)
		}
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].name < pods[j].name })
	t := f.tableLocked(pods, include, true)
	if limit > 0 && len(t.Rows) > limit { // the continue token: the last name sent
		left := int64(len(t.Rows) - limit)
		t.Rows, t.Continue, t.RemainingItemCount = t.Rows[:limit], pods[limit-1].name, &left
	}
	if strings.Contains(r.Header.Get("Accept"), "as=PartialObjectMetadataList") {
		l := f.metadataListLocked(pods[:len(t.Rows)], t.ListMeta)
		if f.skewWholeMetadata && after == "" && limit == 0 {
			l.ResourceVersion = strconv.Itoa(f.rv + 1)
		}
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/vnd.kubernetes.protobuf")
		if err := protobuf.NewSerializer(nil, nil).Encode(l, w); err != nil {
			panic(err)
		}
		return
	}
	b, _ := json.Marshal(t)
	f.mu.Unlock()
	_, _ = w.Write(b)
}

// metadataListLocked returns pods as the server's PartialObjectMetadataList, in reverse order when
// misorderMetadata is set; the caller holds f.mu.
func (f *fakeAPI) metadataListLocked(pods []*fakePod, meta metav1.ListMeta) *metav1.PartialObjectMetadataList {
	l := &metav1.PartialObjectMetadataList{
		TypeMeta: metav1.TypeMeta{Kind: "PartialObjectMetadataList", APIVersion: "meta.k8s.io/v1"}, ListMeta: meta}
	for _, p := range pods {
		l.Items = append(l.Items, metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: p.name,
			Namespace: p.namespace, UID: p.uid, ResourceVersion: fmt.Sprint(p.rv),
			CreationTimestamp: metav1.NewTime(p.created), Labels: p.labels}})
	}
	if f.misorderMetadata {
		slices.Reverse(l.Items)
	}
	return l
}

func (f *fakeAPI) watch(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.watches++
	f.mu.Unlock()
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case b := <-f.events:
			_, _ = w.Write(append(b, '\n'))
			w.(http.Flusher).Flush()
		case <-f.expire:
			_, _ = w.Write([]byte(`{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure",` +
				`"reason":"Expired","code":410,"message":"too old resource version"}}` + "\n"))
			return
		}
	}
}

// resourceVersion returns the resourceVersion of the latest change.
func (f *fakeAPI) resourceVersion() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strconv.Itoa(f.rv)
}
