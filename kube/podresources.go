package kube

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"kscope/cluster"
	kwatch "kscope/watch"
)

// The media types the pod resources ListWatch asks for: protobuf only, which its decoders read.
const (
	podListAccept  = "application/vnd.kubernetes.protobuf"
	podWatchAccept = "application/vnd.kubernetes.protobuf;stream=watch"
)

// WatchPodResources implements cluster.Metrics with client-go's reflector over the pods of spec (the
// namespace and selectors of the table), keeping of each pod only its name, namespace, resourceVersion and
// summed requests and limits (a podResource, about 130 bytes a pod) in a thread-safe store. Its ListWatch
// reads the protobuf lists and watch streams of pods as they arrive and never decodes a pod whole
// (podDecoder). The reflector reconnects as a table's Source does (watch.ReconnectBackoff: within 5 s of the
// server's return, where an informer's backoff grows to a minute). It runs until ctx ends. A clientset that
// cannot be built (it only fails on a config that Connect already refused) leaves a reader that never syncs.
func (c *Cluster) WatchPodResources(ctx context.Context, spec kwatch.Spec) cluster.PodResourceReader {
	store := newPodResourceStore()
	cs, err := c.protobufClientset()
	if err != nil {
		return store
	}
	reflector := newPodResourceReflector(cs.CoreV1().RESTClient(), spec, store)
	c.start.Go(func() { reflector.RunWithContext(ctx) })
	return store
}

// newPodResourceReflector returns the (not yet started) reflector of WatchPodResources on client, a REST
// client of the core API group, keeping store.
func newPodResourceReflector(client rest.Interface, spec kwatch.Spec, store *podResourceStore) *cache.Reflector {
	lw := &podResourceListWatch{client: client, namespace: spec.Namespace, labelSelector: spec.LabelSelector,
		fieldSelector: spec.FieldSelector}
	lw.pods = podDecoder{texts: &lw.texts}
	return cache.NewReflectorWithOptions(lw, &podResource{}, store, cache.ReflectorOptions{
		Name: "kscope pod resources", TypeDescription: "pod resources", Backoff: kwatch.ReconnectBackoff()})
}

// podResourceStore is what the reflector of WatchPodResources keeps: the podResources by namespace/name, in
// a thread-safe cache.Store; its first Replace (the first whole list) makes it synced. It is the
// cluster.PodResourceReader of WatchPodResources; safe for concurrent use.
type podResourceStore struct {
	cache.Store
	synced chan struct{}
	once   sync.Once
}

func newPodResourceStore() *podResourceStore {
	return &podResourceStore{Store: cache.NewStore(cache.MetaNamespaceKeyFunc), synced: make(chan struct{})}
}

// Replace implements cache.Store: the reflector's whole list; the first one makes the store synced.
func (s *podResourceStore) Replace(list []any, resourceVersion string) error {
	if err := s.Store.Replace(list, resourceVersion); err != nil {
		return err
	}
	s.once.Do(func() { close(s.synced) })
	return nil
}

// Synced implements cluster.PodResourceReader.
func (s *podResourceStore) Synced() <-chan struct{} { return s.synced }

// Get implements cluster.PodResourceReader.
func (s *podResourceStore) Get(key string) (cluster.PodResources, bool) {
	obj, ok, err := s.Store.GetByKey(key)
	if err != nil || !ok {
		return cluster.PodResources{}, false
	}
	o, ok := obj.(*podResource)
	if !ok {
		return cluster.PodResources{}, false
	}
	return o.sums, true
}

// podResourceListWatch lists and watches pods in protobuf and decodes them into podResources
// (cache.ListerWatcher and cache.ListerWatcherWithContext). It passes the reflector's options through
// (resourceVersion and its match, limit and continue, bookmarks, timeout) with its own namespace and
// selectors. It declares streaming lists unsupported, so the reflector lists, then watches. Its methods may
// be called from several goroutines.
type podResourceListWatch struct {
	client                                  rest.Interface
	namespace, labelSelector, fieldSelector string
	texts                                   namespaceTexts // the namespaces of every list and watch event
	pods                                    podDecoder     // decodes with texts
}

// request returns a GET of the pods with opts, accepting accept.
func (lw *podResourceListWatch) request(opts metav1.ListOptions, accept string) *rest.Request {
	opts.LabelSelector, opts.FieldSelector = lw.labelSelector, lw.fieldSelector
	return lw.client.Get().Namespace(lw.namespace).Resource("pods").
		VersionedParams(&opts, metav1.ParameterCodec).SetHeader("Accept", accept)
}

// ListWithContext implements cache.ListerWithContext: one list (or one page of it), decoded as it arrives.
func (lw *podResourceListWatch) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	opts.Watch = false
	body, err := lw.request(opts, podListAccept).Stream(ctx)
	if err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	defer body.Close()
	list, err := decodePodList(body, lw.pods)
	if err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	return list, nil
}

// WatchWithContext implements cache.WatcherWithContext: a watch.StreamWatcher over a podWatchDecoder, as
// client-go's rest.Request.Watch builds one over its own decoder (same error reporter).
func (lw *podResourceListWatch) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	body, err := lw.request(opts, podWatchAccept).Stream(ctx)
	if err != nil {
		return nil, fmt.Errorf("watch pods: %w", err)
	}
	return watch.NewStreamWatcherWithLogger(klog.FromContext(ctx), newPodWatchDecoder(body, lw.pods),
		apierrors.NewClientErrorReporter(http.StatusInternalServerError, "GET", "ClientWatchDecoding")), nil
}

// List implements cache.Lister.
func (lw *podResourceListWatch) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

// Watch implements cache.Watcher.
func (lw *podResourceListWatch) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

// IsWatchListSemanticsUnSupported tells the reflector not to use a streaming list (sendInitialEvents): the
// ListWatch does not keep the initial-events-end annotation of the BOOKMARK that ends one.
func (lw *podResourceListWatch) IsWatchListSemanticsUnSupported() bool { return true }
