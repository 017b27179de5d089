package discovery

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
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

// TestProbeList: a terminal error (as apierr classifies it) ends the probe at once; other errors are retried
// until the list succeeds or ctx ends.
func TestProbeList(t *testing.T) {
	gvr := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	gr := gvr.GroupResource()
	unavailable := apierrors.NewServiceUnavailable("starting")
	tests := []struct {
		name     string
		errs     []error // what the first lists return; later ones succeed
		canceled bool    // ctx ends after the errors instead
		want     string  // the probe's error, "" for none
		calls    int
	}{
		{"allowed", nil, false, "", 1},
		{"forbidden", []error{apierrors.NewForbidden(gr, "", errors.New("no"))}, false,
			"list apiextensions.k8s.io/v1, Resource=customresourcedefinitions: customresourcedefinitions.apiextensions.k8s.io is forbidden: no", 1},
		{"not served", []error{apierrors.NewNotFound(gr, "")}, false, "not found", 1},
		{"method not supported", []error{apierrors.NewMethodNotSupported(gr, "list")}, false, "not supported", 1},
		{"unauthorized", []error{apierrors.NewUnauthorized("token expired")}, false, "token expired", 1},
		{"unreachable, then allowed", []error{unavailable, unavailable}, false, "", 3},
		{"unreachable until ctx ends", []error{unavailable, unavailable}, true, context.Canceled.Error(), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			client := metadatafake.NewSimpleMetadataClient(runtime.NewScheme())
			calls := 0
			client.PrependReactor("list", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
				calls++
				if calls > len(tt.errs) {
					if tt.canceled {
						t.Fatal("listed after ctx ended")
					}
					return true, &metav1.List{}, nil
				}
				if calls == len(tt.errs) && tt.canceled {
					cancel()
				}
				return true, nil, tt.errs[calls-1]
			})
			err := probeList(ctx, client, gvr, wait.Backoff{Duration: time.Millisecond, Factor: 2, Steps: 10, Cap: 5 * time.Millisecond})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("probe: %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("probe: %v, want an error containing %q", err, tt.want)
			}
			if calls != tt.calls {
				t.Errorf("%d lists, want %d", calls, tt.calls)
			}
		})
	}
}
