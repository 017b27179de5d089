package discovery

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"
)

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"pods", "pods", 0}, {"podz", "pods", 1}, {"pod", "pods", 1},
		{"deploymnts", "deployments", 1}, {"svc", "", 3}, {"kitten", "sitting", 3},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestRunWithoutWatchesRefreshesOnWake(t *testing.T) {
	// The fake getter has no REST config, like a user who may not watch CRDs: Run falls back to re-reading
	// discovery once at start and whenever something wakes it.
	c, g := loadedCatalog(t, testServer())
	calls := make(chan struct{}, 10)
	defer c.Subscribe(func() { calls <- struct{}{} })()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()

	s := testServer()
	s.groups[6].versions[0].resources = append(s.groups[6].versions[0].resources, res("gizmos", "gizmo", "Gizmo", true, rw))
	g.disc.set(s)
	expectCall(t, calls, "start-up re-read")
	if _, ok := c.lookup("shop.example.com", "gizmos"); !ok {
		t.Error("gizmos missing after the start-up re-read")
	}

	g.disc.set(testServer())
	c.wake()
	c.wake() // coalesced
	expectCall(t, calls, "re-read after wake")
	if _, ok := c.lookup("shop.example.com", "gizmos"); ok {
		t.Error("gizmos still listed")
	}
	expectNoCall(t, calls, "no further change")

	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

// TestRunStartReadsOnce: the start-up catch-up of a catalog loaded from the disk cache is one read of
// discovery, even when the server serves what the cache held (issue 51: a warm start made four reads of three
// requests each, the settling re-reads meant for a CRD the server has just established).
func TestRunStartReadsOnce(t *testing.T) {
	c, g := loadedCatalog(t, testServer())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(5 * time.Second); g.disc.invalidated() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no start-up read within 5 s")
		}
	}
	time.Sleep(50 * time.Millisecond) // (the read invalidates the client, then resets the mapper over it)
	first := g.disc.invalidated()
	time.Sleep(time.Second) // settleBackoff's second read would come 0.6 s after its first
	if n := g.disc.invalidated(); n != first {
		t.Errorf("discovery read again at start-up (%d invalidations, %d after the first read), want one read", n, first)
	}
}

// TestInformersStopAtTerminalErrors: the CRD and APIService watches start without a list to ask whether
// they may (issue 51: two requests of every start); one the server refuses for good (as apierr classifies
// its error) stops at once and is not tried again, one the server cannot answer yet is retried until it syncs.
// Either way it reports ready, so that Run's start-up read follows.
func TestInformersStopAtTerminalErrors(t *testing.T) {
	gr := schema.GroupResource{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"}
	unavailable := apierrors.NewServiceUnavailable("starting")
	tests := []struct {
		name    string
		errs    []error // what the first lists return; later ones succeed
		synced  bool    // the informers sync (else they stop)
		maxList int     // lists made, at most
	}{
		{"allowed", nil, true, 2},
		{"forbidden", []error{apierrors.NewForbidden(gr, "", errors.New("no"))}, false, 2},
		{"not served", []error{apierrors.NewNotFound(gr, "")}, false, 2},
		{"method not supported", []error{apierrors.NewMethodNotSupported(gr, "list")}, false, 2},
		{"unauthorized", []error{apierrors.NewUnauthorized("token expired")}, false, 2},
		{"unreachable, then allowed", []error{unavailable, unavailable}, true, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			client := metadatafake.NewSimpleMetadataClient(runtime.NewScheme())
			var mu sync.Mutex
			var lists []metav1.ListOptions
			client.PrependReactor("list", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
				mu.Lock()
				defer mu.Unlock()
				lists = append(lists, a.(clienttesting.ListActionImpl).ListOptions)
				if len(lists) <= 2*len(tt.errs) { // (each of the two informers meets each error)
					return true, nil, tt.errs[(len(lists)-1)/2]
				}
				return false, nil, nil
			})
			c, _ := loadedCatalog(t, testServer())
			var wg sync.WaitGroup
			defer func() { cancel(); wg.Wait() }()
			for i, r := range c.startInformers(ctx, &wg, client) {
				select {
				case <-r:
				case <-time.After(10 * time.Second):
					t.Fatalf("informer %d neither synced nor stopped within 10 s", i)
				}
			}
			time.Sleep(300 * time.Millisecond) // a stopped informer would list again now
			mu.Lock()
			defer mu.Unlock()
			for _, o := range lists {
				if o.Limit == 1 {
					t.Errorf("a probe list (limit 1) before the watch: %+v", o)
				}
			}
			if len(lists) > tt.maxList {
				t.Errorf("%d lists, want at most %d", len(lists), tt.maxList)
			}
			if !tt.synced && len(lists) != len(watchedResources()) {
				t.Errorf("%d lists, want one per informer and no retry", len(lists))
			}
		})
	}
}

// TestInformersKeepWatchingAfterSync: once synced, a watch that meets a terminal error (a token expired,
// which the credential plugin renews) is retried, not stopped: only the first list tells that the server
// refuses it for good.
func TestInformersKeepWatchingAfterSync(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	client := metadatafake.NewSimpleMetadataClient(runtime.NewScheme())
	var watches atomic.Int32
	client.PrependWatchReactor("*", func(clienttesting.Action) (bool, watch.Interface, error) {
		if watches.Add(1) <= int32(len(watchedResources())) {
			return true, nil, apierrors.NewUnauthorized("token expired")
		}
		return false, nil, nil
	})
	c, _ := loadedCatalog(t, testServer())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	for _, r := range c.startInformers(ctx, &wg, client) {
		<-r
	}
	for deadline := time.Now().Add(10 * time.Second); watches.Load() <= int32(len(watchedResources())); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d watches in 10 s: a watch refused after its informer synced was not retried", watches.Load())
		}
	}
}
