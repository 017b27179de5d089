package discovery

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
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

// watchedResources are the objects whose changes change what discovery serves.
func watchedResources() []schema.GroupVersionResource {
	return []schema.GroupVersionResource{
		{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"},
		{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"},
	}
}

// Run keeps the catalog current until ctx ends. It watches CRDs and APIServices with metadata informers,
// and after each add, update or delete re-reads discovery (debounced; changes show within about 3 s) and
// notifies subscribers. Once the watches have synced it re-reads discovery exactly once, so a catalog loaded
// from the disk cache catches up (one read: the settling re-reads after a change cover the server's lag
// behind a CRD it has just established, which a catalog read at start has no reason to expect). A watch the
// server refuses for good (not permitted, or the API not served) stops at its first error and is not
// attempted again, without a list beforehand to ask: the catalog then changes only on Refresh or when
// Resolve meets a name it does not know. Other watch errors are retried with the informers' backoff and
// never logged. Run blocks; call it once per catalog.
func (c *Catalog) Run(ctx context.Context) {
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	c.start.Go(func() {
		defer wg.Done()
		c.refreshLoop(ctx)
	})

	var client metadata.Interface
	if cfg, err := c.getter.ToRESTConfig(); err == nil {
		client, _ = metadata.NewForConfig(cfg)
	}
	var ready []<-chan struct{}
	if client != nil {
		ready = c.startInformers(ctx, &wg, client)
	}
	for _, r := range ready {
		<-r
	}
	if ctx.Err() == nil {
		_, _ = c.refresh(ctx) // (an error keeps what the catalog holds; the next change reads again)
	}
	<-ctx.Done()
}

// startInformers starts a metadata informer of client for each watched resource on its own goroutine. An
// informer stops at an error that apierr.Classify calls terminal (forbidden, not found, method not
// supported, unauthorized: as a watch.Source judges them) before any of its requests has succeeded; other
// errors are left to its backoff. It returns, for each informer, a channel closed once it has synced or
// stopped, or ctx has ended.
func (c *Catalog) startInformers(ctx context.Context, wg *sync.WaitGroup, client metadata.Interface) []<-chan struct{} {
	var ready []<-chan struct{}
	for _, gvr := range watchedResources() {
		infCtx, stop := context.WithCancel(ctx)
		inf := c.newInformer(client, gvr, stop)
		wg.Add(2)
		apiServices := gvr.Resource == "apiservices"
		c.start.Go(func() {
			defer wg.Done()
			defer stop()
			inf.RunWithContext(infCtx)
			if apiServices {
				c.setAPIServices(nil)
			}
		})
		done := make(chan struct{})
		c.start.Go(func() {
			defer wg.Done()
			defer close(done)
			if cache.WaitForCacheSync(infCtx.Done(), inf.HasSynced) && apiServices && infCtx.Err() == nil {
				c.setAPIServices(inf.GetStore().ListKeys)
			}
		})
		ready = append(ready, done)
	}
	return ready
}

// newInformer returns a metadata informer for gvr that wakes the refresher on every change after its
// initial list. A terminal error before any of its lists and watches has succeeded calls stop (the server
// refuses it for good, as the probe list it replaces would have said) as that request returns, so that the
// reflector's fallback from its streaming list to a plain list is not sent: one refused request per
// resource. Any error after, such as an expired token that the credential plugin renews, and every other
// error, is left to the reflector's backoff, silently.
func (c *Catalog) newInformer(client metadata.Interface, gvr schema.GroupVersionResource, stop context.CancelFunc) cache.SharedIndexInformer {
	var answered atomic.Bool // a list or watch has succeeded
	answer := func(err error) {
		switch {
		case err == nil:
			answered.Store(true)
		case !answered.Load() && apierr.Classify(err).Terminal():
			stop()
		}
	}
	inf := metadatainformer.NewFilteredMetadataInformer(refusalClient{client, answer}, gvr, "", 0, nil, nil).Informer()
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

// refusalClient is a metadata client whose lists and watches hand their outcome (nil: success) to refused
// before returning.
type refusalClient struct {
	metadata.Interface
	refused func(error)
}

// IsWatchListSemanticsUnSupported passes on what the wrapped client says (client-go's fakes cannot stream a
// list; the informer asks, see util/watchlist).
func (c refusalClient) IsWatchListSemanticsUnSupported() bool {
	u, ok := c.Interface.(interface{ IsWatchListSemanticsUnSupported() bool })
	return ok && u.IsWatchListSemanticsUnSupported()
}

func (c refusalClient) Resource(gvr schema.GroupVersionResource) metadata.Getter {
	return refusalGetter{c.Interface.Resource(gvr), c.refused}
}

type refusalGetter struct {
	metadata.Getter
	refused func(error)
}

func (g refusalGetter) Namespace(ns string) metadata.ResourceInterface {
	return refusalResource{g.Getter.Namespace(ns), g.refused}
}

func (g refusalGetter) List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	return refusalResource{g.Getter, g.refused}.List(ctx, opts)
}

func (g refusalGetter) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return refusalResource{g.Getter, g.refused}.Watch(ctx, opts)
}

type refusalResource struct {
	metadata.ResourceInterface
	refused func(error)
}

func (r refusalResource) List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	l, err := r.ResourceInterface.List(ctx, opts)
	r.refused(err)
	return l, err
}

func (r refusalResource) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	w, err := r.ResourceInterface.Watch(ctx, opts)
	r.refused(err)
	return w, err
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
