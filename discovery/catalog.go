package discovery

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/discovery"

	"kscope/spawn"
)

// Catalog is the list of API resources the cluster serves, read through kubectl's cached, aggregated
// DiscoveryClient (disk cache ~/.kube/cache/discovery, shared with kubectl) and resolved through the same
// RESTMapper kubectl uses. A group-version that fails discovery is reported by Unavailable while the rest
// stays usable.
//
// A Catalog is created empty; Load fills it, Refresh re-reads it from the server, Run keeps it current by
// watching CRDs and APIServices. All methods are safe for concurrent use.
type Catalog struct {
	getter genericclioptions.RESTClientGetter

	// loadMu serializes every use of the discovery client and the REST mapper (Load, Refresh, Resolve's
	// mapping): client-go's disk-cached discovery client is not safe for concurrent reads (seen with the race
	// detector: two reads encode the same cached APIResourceList, each setting its TypeMeta). It is never held
	// while calling subscribers.
	loadMu sync.Mutex

	mu          sync.RWMutex
	clients     *clients
	loaded      bool
	resources   []Resource // discovery order
	unavailable []Unavailable
	refreshedAt time.Time
	resolved    map[string]Resource // Resolve's successes since the last read
	generation  uint64              // counts reads, so a resolution begun before a read is not remembered after it
	subs        map[int]*subscription
	nextSub     int
	kick        chan struct{} // wakes Run's refresher; buffered, never closed
	// apiServices lists the names of the APIServices while Run's watch of them has synced and runs; nil
	// otherwise (see staleProbeNeeded).
	apiServices func() []string
	// start starts the catalog's goroutines (Run's, the subscribers'); nil: plain goroutines. Set by Spawn
	// before either starts, then read only.
	start spawn.Func
}

// Spawn makes start the way the catalog starts its goroutines (Run's refresher and informers, each
// subscriber's deliveries), so that a panic on one can stop the UI instead of the process. Call it before Run
// and Subscribe; not safe concurrently with them.
func (c *Catalog) Spawn(start spawn.Func) { c.start = start }

// clients are the discovery client and RESTMapper obtained once from the getter.
type clients struct {
	disc   discovery.CachedDiscoveryInterfaceWithContext
	mapper meta.RESTMapper
}

// NewCatalog returns an empty catalog reading through getter's ToDiscoveryClient and ToRESTMapper, which
// are called once, on first use. Nothing is read until Load, Refresh or Resolve.
func NewCatalog(getter genericclioptions.RESTClientGetter) *Catalog {
	return &Catalog{getter: getter, subs: map[int]*subscription{}, kick: make(chan struct{}, 1)}
}

// Load fills the catalog, reading the discovery disk cache where it is fresh (kubectl's 6 h TTL) and the
// server otherwise. Once the catalog holds data, Load returns nil at once without any I/O. A failure of some
// group-versions is not an error (see Unavailable); an error means nothing could be read, and the catalog
// stays as it was. Requests made for Load end with ctx.
func (c *Catalog) Load(ctx context.Context) error {
	if c.isLoaded() {
		return nil
	}
	_, err := c.read(ctx, false)
	return err
}

// Refresh drops the cached discovery documents and the RESTMapper's cached mappings, re-reads everything
// from the server and, if the result differs from the catalog's content, notifies subscribers. On error the
// previous content is kept.
func (c *Catalog) Refresh(ctx context.Context) error {
	_, err := c.refresh(ctx)
	return err
}

// refresh is Refresh, also telling whether the content changed.
func (c *Catalog) refresh(ctx context.Context) (changed bool, err error) {
	return c.read(ctx, true)
}

// read reads discovery (dropping the caches first if invalidate) and installs the result.
func (c *Catalog) read(ctx context.Context, invalidate bool) (changed bool, err error) {
	c.loadMu.Lock()
	defer c.loadMu.Unlock()
	if !invalidate && c.isLoaded() {
		return false, nil // a concurrent Load got there first
	}
	cl, err := c.clientsOnce()
	if err != nil {
		return false, err
	}
	if invalidate {
		cl.disc.InvalidateWithContext(ctx)
		meta.MaybeResetRESTMapper(cl.mapper)
	}
	lists, err := discovery.ServerPreferredResourcesWithContext(ctx, cl.disc)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr // group-versions cut short by ctx are not unavailable
	}
	var unavailable []Unavailable
	var failed *discovery.ErrGroupDiscoveryFailed
	switch {
	case errors.As(err, &failed):
		unavailable = unavailableFrom(failed)
	case err != nil:
		return false, fmt.Errorf("discover API resources: %w", err)
	}
	if groups, err := cl.disc.ServerGroupsWithContext(ctx); err == nil && staleProbeNeeded(ctx, cl.disc, groups, c.registered()) {
		unavailable = mergeUnavailable(unavailable, staleGroupVersions(ctx, cl.disc.RESTClient()))
	}
	// Subresources ("deployments/scale") are left out of the preferred lists; the full lists (from the same
	// cache, no further request once read) name them.
	_, all, _ := cl.disc.ServerGroupsAndResourcesWithContext(ctx)
	return c.install(withSubresources(fromPreferredLists(lists), all), unavailable), nil
}

// registered returns the APIServices' names while Run's watch of them knows them, else nil.
func (c *Catalog) registered() []string {
	c.mu.RLock()
	list := c.apiServices
	c.mu.RUnlock()
	if list == nil {
		return nil
	}
	return list()
}

// setAPIServices makes list the source of registered (nil: none).
func (c *Catalog) setAPIServices(list func() []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.apiServices = list
}

func (c *Catalog) isLoaded() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.loaded
}

// clientsOnce obtains the discovery client and RESTMapper from the getter on first use.
func (c *Catalog) clientsOnce() (*clients, error) {
	c.mu.RLock()
	cl := c.clients
	c.mu.RUnlock()
	if cl != nil {
		return cl, nil
	}
	disc, err := c.getter.ToDiscoveryClient()
	if err != nil {
		return nil, fmt.Errorf("discovery client: %w", err)
	}
	mapper, err := c.getter.ToRESTMapper()
	if err != nil {
		return nil, fmt.Errorf("rest mapper: %w", err)
	}
	cl = &clients{disc: discovery.ToCachedDiscoveryInterfaceWithContext(disc), mapper: mapper}
	c.mu.Lock()
	if c.clients == nil {
		c.clients = cl
	}
	cl = c.clients
	c.mu.Unlock()
	return cl, nil
}

// install replaces the catalog's content and notifies subscribers if it changed.
func (c *Catalog) install(resources []Resource, unavailable []Unavailable) (changed bool) {
	c.mu.Lock()
	changed = !reflect.DeepEqual(resources, c.resources) || !reflect.DeepEqual(unavailable, c.unavailable)
	c.resources, c.unavailable = resources, unavailable
	c.loaded = true
	c.refreshedAt = time.Now()
	c.resolved = nil
	c.generation++
	subs := c.subscriptionsLocked()
	c.mu.Unlock()
	if changed {
		for _, s := range subs {
			s.notify()
		}
	}
	return changed
}

// unavailableFrom lists the failed group-versions in lexical order with their reasons.
func unavailableFrom(failed *discovery.ErrGroupDiscoveryFailed) []Unavailable {
	out := make([]Unavailable, 0, len(failed.Groups))
	for gv, err := range failed.Groups {
		out = append(out, Unavailable{GroupVersion: gv.String(), Reason: err.Error()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GroupVersion < out[j].GroupVersion })
	return out
}

// Resources returns every resource, sorted by group then name with the core group first (kubectl
// api-resources' default order). The slice is the caller's; the Resources in it share read-only slices.
func (c *Catalog) Resources() []Resource {
	return c.List(ListOptions{})
}

// List returns the resources that match opts, in opts' order (see ListOptions).
func (c *Catalog) List(opts ListOptions) []Resource {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return opts.Select(c.resources)
}

// Unavailable returns the group-versions that failed discovery at the last read, sorted by group-version;
// nil when discovery was complete. Stale aggregated group-versions are found by one extra request for the
// aggregated /apis document, made only when the read went to the server or the cached group list shows a
// group without versions; their Reason adds the APIService's Available condition where it is readable.
func (c *Catalog) Unavailable() []Unavailable {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]Unavailable(nil), c.unavailable...)
}

// lookup returns the catalog entry for group and plural name.
func (c *Catalog) lookup(group, name string) (Resource, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, r := range c.resources {
		if r.Group == group && r.Name == name {
			return r, true
		}
	}
	return Resource{}, false
}

// snapshot returns the resources in discovery order and the time of the last read.
func (c *Catalog) snapshot() ([]Resource, time.Time) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.resources, c.refreshedAt
}
