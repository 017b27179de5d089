package discovery

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"

	"kscope/apierr"
)

// settleBackoff gives the waits before each re-read after a CRD or APIService change, 200 ms doubling to
// 1.6 s (Steps re-reads): the first lets a burst of events pass, the later ones cover the server's discovery
// lagging behind the object (a CRD is served a moment after it is Established). Their sum stays well under
// 5 s.
func settleBackoff() wait.Backoff {
	return wait.Backoff{Duration: 200 * time.Millisecond, Factor: 2, Steps: 4}
}

// probeBackoff gives the waits between attempts to list a watched resource while the server cannot be
// reached: 1 s doubling to at most 30 s, for as long as it takes.
func probeBackoff() wait.Backoff {
	return wait.Backoff{Duration: time.Second, Factor: 2, Steps: math.MaxInt32, Cap: 30 * time.Second}
}

// watchedResources are the objects whose changes change what discovery serves.
func watchedResources() []schema.GroupVersionResource {
	return []schema.GroupVersionResource{
		{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"},
		{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"},
	}
}

// Run keeps the catalog current until ctx ends. It watches CRDs and APIServices with metadata informers
// where the user may list and watch them, and after each add, update or delete re-reads discovery
// (debounced; changes show within about 3 s) and notifies subscribers. Once the watches have synced it
// re-reads discovery exactly once, so a catalog loaded from the disk cache catches up (one read: the settling
// re-reads after a change cover the server's lag behind a CRD it has just established, which a catalog read at
// start has no reason to expect). Where a watch is not
// permitted (or the API is not served) it is not attempted again: the catalog then changes only on Refresh
// or when Resolve meets a name it does not know. Watch errors are retried with the informers' backoff and
// never logged. Run blocks; call it once per catalog.
func (c *Catalog) Run(ctx context.Context) {
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	c.start.Go(func() {
		defer wg.Done()
		c.refreshLoop(ctx)
	})

	var synced []cache.InformerSynced
	for _, inf := range c.startInformers(ctx, &wg) {
		synced = append(synced, inf.HasSynced)
	}
	if cache.WaitForCacheSync(ctx.Done(), synced...) {
		_, _ = c.refresh(ctx) // (an error keeps what the catalog holds; the next change reads again)
	}
	<-ctx.Done()
}

// startInformers probes, for each watched resource in turn, whether the user may list it, and if so starts
// a metadata informer for it on its own goroutine.
func (c *Catalog) startInformers(ctx context.Context, wg *sync.WaitGroup) []cache.SharedIndexInformer {
	cfg, err := c.getter.ToRESTConfig()
	if err != nil {
		return nil
	}
	client, err := metadata.NewForConfig(cfg)
	if err != nil {
		return nil
	}
	var started []cache.SharedIndexInformer
	for _, gvr := range watchedResources() {
		if err := probeList(ctx, client, gvr, probeBackoff()); err != nil {
			continue
		}
		inf := c.newInformer(client, gvr)
		wg.Add(1)
		c.start.Go(func() {
			defer wg.Done()
			inf.RunWithContext(ctx)
		})
		started = append(started, inf)
	}
	return started
}

// newInformer returns a metadata informer for gvr that wakes the refresher on every change after its
// initial list. Its watch errors are left to the reflector's backoff, silently.
func (c *Catalog) newInformer(client metadata.Interface, gvr schema.GroupVersionResource) cache.SharedIndexInformer {
	inf := metadatainformer.NewFilteredMetadataInformer(client, gvr, "", 0, nil, nil).Informer()
	_ = inf.SetWatchErrorHandlerWithContext(func(context.Context, *cache.Reflector, error) {})
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(_ any, initial bool) {
			if !initial {
				c.wake()
			}
		},
		UpdateFunc: func(_, _ any) { c.wake() },
		DeleteFunc: func(any) { c.wake() },
	})
	return inf
}

// probeList tells whether the user may list gvr. A terminal error (apierr.Classify: forbidden, not found,
// method not supported, unauthorized, as a watch.Source judges them) is final; other errors (the server
// unreachable) are retried after backoff's waits until ctx ends, which returns ctx.Err().
func probeList(ctx context.Context, client metadata.Interface, gvr schema.GroupVersionResource, backoff wait.Backoff) error {
	return backoff.DelayFunc().Until(ctx, true, true, func(ctx context.Context) (bool, error) {
		_, err := client.Resource(gvr).List(ctx, metav1.ListOptions{Limit: 1})
		switch {
		case err == nil:
			return true, nil
		case apierr.Classify(err).Terminal():
			return false, fmt.Errorf("list %s: %w", gvr, err)
		}
		return false, nil
	})
}

// wake asks Run's refresher to re-read discovery soon; it never blocks.
func (c *Catalog) wake() {
	select {
	case c.kick <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// refreshLoop re-reads discovery after each wake-up until ctx ends.
func (c *Catalog) refreshLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
			c.settle(ctx)
		}
	}
}

// settle re-reads discovery after each of settleBackoff's waits until the catalog changes. Wake-ups that
// arrive meanwhile are absorbed by the next re-read.
func (c *Catalog) settle(ctx context.Context) {
	backoff := settleBackoff()
	reads := 0
	_ = backoff.DelayFunc().Until(ctx, false, true, func(ctx context.Context) (bool, error) {
		select {
		case <-c.kick:
		default:
		}
		reads++
		changed, err := c.refresh(ctx)
		return (err == nil && changed) || reads == backoff.Steps, nil
	})
}
