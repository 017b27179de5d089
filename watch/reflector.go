package watch

import (
	"context"
	"math"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/wait"
	kwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// Reconnecting after the server comes back. client-go's informers wait 0.8 s doubling to 30 s between
// attempts, jittered up to twice that, and forget the doubling only after two quiet minutes: after an API
// server restart, a network cut or a compaction, a table stayed "reconnecting" up to a minute after the server
// answered again (measured 1.7–54 s across faults on the devcluster), and each further fault within two
// minutes waited longer. A Source runs client-go's reflector itself with a shorter backoff: 250 ms doubling to
// 4 s, jittered by at most a quarter: a server back is seen within 5 s, while a server that stays away gets
// about one list or watch request every 4 s from each open view.
const (
	reconnectFirst = 250 * time.Millisecond
	reconnectMax   = 4 * time.Second
)

// ReconnectBackoff returns the backoff between failed or ended list-and-watch rounds of every reflector kscope
// runs (a Source's, and kube's pod resources reader): a new value each call, for one reflector.
func ReconnectBackoff() *wait.Backoff {
	return &wait.Backoff{
		Duration: reconnectFirst,
		Cap:      reconnectMax,
		Steps:    math.MaxInt32,
		Factor:   2,
		Jitter:   0.25,
	}
}

// newReflector returns the reflector that keeps s's rows: client-go's reflector (its list, watch, relist after
// 410 Gone, bookmarks), writing straight into s (reflectorStore) with reconnectBackoff, errors reported to s
// by lw (reportingListWatch). No FIFO or indexer stands between the reflector and the rows.
func (s *Source) newReflector(lw *tableListWatch) *cache.Reflector {
	return newRowReflector(lw, s, s.store, s.watchError, s.spec)
}

// newRowReflector returns a reflector of the rowObjects lw lists and watches, writing them straight into
// sink (reflectorStore), failures reported to failed, with reflectorOptions(spec).
func newRowReflector(lw listWatcher, sink rowSink, rows *rowStore, failed func(error), spec Spec) *cache.Reflector {
	return cache.NewReflectorWithOptions(&reportingListWatch{listWatcher: lw, failed: failed},
		&rowObject{}, &reflectorStore{s: sink, rows: rows}, reflectorOptions(spec))
}

// listWatcher is a ListWatch of rowObjects: tableListWatch, protoListWatch.
type listWatcher interface {
	cache.ListerWatcherWithContext
	IsWatchListSemanticsUnSupported() bool
}

// rowSink is a source whose reflector writes its rows (reflectorStore): Source, and the ObjectSource of a
// HEALTH column over a built-in kind.
type rowSink interface {
	// onAdd stores an added or updated row object; the rows of the first list (initial) are not changes.
	onAdd(obj any, initial bool)
	// onDelete removes a deleted row object (or a cache.DeletedFinalStateUnknown).
	onDelete(obj any)
	// setSynced is called once the first list has been stored.
	setSynced()
}

// reflectorOptions are the options of the reflector of a Source of spec.
func reflectorOptions(spec Spec) cache.ReflectorOptions {
	return cache.ReflectorOptions{
		Name:            "kscope " + spec.GVR.String(),
		TypeDescription: spec.GVR.String(),
		Backoff:         ReconnectBackoff(),
	}
}

// reportingListWatch is a listWatcher that reports its failed lists, and its failed watch requests that end
// the reflector's round, to failed: what a SharedIndexInformer's watch error handler was told. (A bare
// reflector logs them only.)
type reportingListWatch struct {
	listWatcher
	failed func(error)
}

// ListWithContext lists; a failure (not caused by ctx ending) is reported.
func (lw *reportingListWatch) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	list, err := lw.listWatcher.ListWithContext(ctx, opts)
	if err != nil && ctx.Err() == nil {
		lw.failed(err)
	}
	return list, err
}

// WatchWithContext watches; a failed request that the reflector does not retry at once (it retries a refused
// connection and 429) is reported.
func (lw *reportingListWatch) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (kwatch.Interface, error) {
	w, err := lw.listWatcher.WatchWithContext(ctx, opts)
	if err != nil && ctx.Err() == nil && !utilnet.IsConnectionRefused(err) && !apierrors.IsTooManyRequests(err) {
		lw.failed(err)
	}
	return w, err
}

// List implements cache.Lister.
func (lw *reportingListWatch) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

// Watch implements cache.Watcher.
func (lw *reportingListWatch) Watch(opts metav1.ListOptions) (kwatch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

// reflectorStore is the store a Source's reflector writes to (cache.ReflectorStore): each object goes to the
// Source's rows (rows) as the informer's handlers used to take it. The reflector calls it from its one
// goroutine.
type reflectorStore struct {
	s    rowSink
	rows *rowStore
	// listed is set once the first list has been delivered: its rows are the table the view opens with, not
	// changes, and the source is synced.
	listed bool
}

// Add stores a row the watch added.
func (r *reflectorStore) Add(obj any) error {
	r.s.onAdd(keepRowMetadata(obj), false)
	return nil
}

// Update stores a row the watch changed.
func (r *reflectorStore) Update(obj any) error {
	r.s.onAdd(keepRowMetadata(obj), false)
	return nil
}

// Delete removes a row the watch deleted.
func (r *reflectorStore) Delete(obj any) error {
	r.s.onDelete(obj)
	return nil
}

// Replace takes a whole list: its rows are stored, and the rows held that it lacks are deleted (objects
// deleted while the watch was away). The first list syncs the source.
func (r *reflectorStore) Replace(list []any, _ string) error {
	first := !r.listed
	keep := make(map[string]struct{}, len(list))
	for _, obj := range list {
		o := keepRowMetadata(obj)
		if row := rowOf(o); row != nil {
			keep[row.Key] = struct{}{}
		}
		r.s.onAdd(o, first)
	}
	for _, key := range r.rows.keysNotIn(keep) {
		r.s.onDelete(cache.DeletedFinalStateUnknown{Key: key})
	}
	if first {
		r.listed = true
		r.s.setSynced()
	}
	return nil
}

// Resync does nothing: a Source has no resync period.
func (r *reflectorStore) Resync() error { return nil }
