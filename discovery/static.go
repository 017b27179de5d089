package discovery

import (
	"context"
	"errors"
	"slices"
	"sort"
	"sync"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiversion "k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/openapi"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

// StaticCatalog is a Catalog over content held in memory, for tests of code that lists and resolves
// resources (the UI). It is a real *Catalog (Resources, List, Unavailable, Resolve, Subscribe and Refresh are
// the Catalog's own code) reading discovery documents built from Resources instead of a server's, through
// the RESTMapper and short-name expander kubectl builds. So Resolve resolves exactly as kscope does and fails
// with the same *NotFoundError or *AmbiguousError, suggestions and wording. Set, Add and SetUnavailable change
// the content as a server would and re-read it; subscribers are notified when it changed. All methods are
// safe for concurrent use. Run does nothing useful (there is nothing to watch).
type StaticCatalog struct {
	*Catalog
	disc *staticDiscovery
}

// NewStaticCatalog returns a loaded catalog serving resources, which are in discovery order: groups are
// served in the order they first appear, each group's versions likewise, the first being the preferred one.
// As from a server, a resource without verbs is not listed (kubectl api-resources' rule) but still resolves.
func NewStaticCatalog(resources ...Resource) *StaticCatalog {
	d := &staticDiscovery{resources: slices.Clone(resources)}
	mapper := restmapper.NewShortcutExpander(restmapper.NewDeferredDiscoveryRESTMapper(d), d, nil)
	s := &StaticCatalog{Catalog: NewCatalog(&staticGetter{disc: d, mapper: mapper}), disc: d}
	s.reread()
	return s
}

// Set replaces every resource (in discovery order, as for NewStaticCatalog) and re-reads the catalog.
func (s *StaticCatalog) Set(resources ...Resource) {
	s.disc.update(func(d *staticDiscovery) { d.resources = slices.Clone(resources) })
	s.reread()
}

// Add serves resources after the current ones (as a new CRD is) and re-reads the catalog.
func (s *StaticCatalog) Add(resources ...Resource) {
	s.disc.update(func(d *staticDiscovery) { d.resources = append(slices.Clone(d.resources), resources...) })
	s.reread()
}

// SetUnavailable makes the group-versions of u fail discovery, each with its Reason as the error, replacing
// the previous failures, and re-reads the catalog: Unavailable then returns u sorted by group-version, and
// Resolve names them for inputs in their groups. Stale is not simulated (the aggregated document is not
// served): Unavailable reports every entry with Stale false.
func (s *StaticCatalog) SetUnavailable(u ...Unavailable) {
	s.disc.update(func(d *staticDiscovery) {
		d.failed = map[string]string{}
		for _, x := range u {
			d.failed[x.GroupVersion] = x.Reason
		}
	})
	s.reread()
}

// reread refreshes the catalog from the in-memory documents, which cannot fail to be read.
func (s *StaticCatalog) reread() {
	_ = s.Refresh(context.Background())
}

// staticGetter hands the Catalog its in-memory discovery client and mapper; there is no REST config.
type staticGetter struct {
	disc   *staticDiscovery
	mapper meta.RESTMapper
}

func (g *staticGetter) ToRESTConfig() (*rest.Config, error) {
	return nil, errors.New("static catalog: no server")
}
func (g *staticGetter) ToDiscoveryClient() (discovery.CachedDiscoveryInterface, error) {
	return g.disc, nil
}
func (g *staticGetter) ToRESTMapper() (meta.RESTMapper, error)        { return g.mapper, nil }
func (g *staticGetter) ToRawKubeConfigLoader() clientcmd.ClientConfig { return nil }

// staticDiscovery serves legacy discovery documents (group list, per group-version resource lists) built
// from resources; the group-versions in failed fail with their reason. It is always fresh. Safe for
// concurrent use.
type staticDiscovery struct {
	mu        sync.Mutex
	resources []Resource
	failed    map[string]string // group-version → reason
}

var _ discovery.CachedDiscoveryInterface = (*staticDiscovery)(nil)

func (d *staticDiscovery) update(fn func(*staticDiscovery)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	fn(d)
}

func (d *staticDiscovery) ServerGroups() (*metav1.APIGroupList, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	list := &metav1.APIGroupList{}
	index := map[string]int{}
	add := func(gv schema.GroupVersion) {
		i, ok := index[gv.Group]
		if !ok {
			i = len(list.Groups)
			index[gv.Group] = i
			pref := metav1.GroupVersionForDiscovery{GroupVersion: gv.String(), Version: gv.Version}
			list.Groups = append(list.Groups, metav1.APIGroup{Name: gv.Group, PreferredVersion: pref})
		}
		g := &list.Groups[i]
		for _, v := range g.Versions {
			if v.Version == gv.Version {
				return
			}
		}
		g.Versions = append(g.Versions, metav1.GroupVersionForDiscovery{GroupVersion: gv.String(), Version: gv.Version})
	}
	for _, r := range d.resources {
		add(schema.GroupVersion{Group: r.Group, Version: r.Version})
	}
	failed := make([]string, 0, len(d.failed))
	for gv := range d.failed {
		failed = append(failed, gv)
	}
	sort.Strings(failed)
	for _, s := range failed {
		if gv, err := schema.ParseGroupVersion(s); err == nil {
			add(gv)
		}
	}
	return list, nil
}

func (d *staticDiscovery) ServerResourcesForGroupVersion(groupVersion string) (*metav1.APIResourceList, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if reason, ok := d.failed[groupVersion]; ok {
		return nil, errors.New(reason)
	}
	list := &metav1.APIResourceList{GroupVersion: groupVersion}
	for _, r := range d.resources {
		if r.APIVersion() == groupVersion {
			list.APIResources = append(list.APIResources, metav1.APIResource{
				Name: r.Name, SingularName: r.SingularName, Namespaced: r.Namespaced, Kind: r.Kind,
				Verbs: slices.Clone(r.Verbs), ShortNames: slices.Clone(r.ShortNames), Categories: slices.Clone(r.Categories),
			})
			for _, sub := range r.Subresources { // as the server lists them: "deployments/scale"
				list.APIResources = append(list.APIResources, metav1.APIResource{
					Name: r.Name + "/" + sub, Namespaced: r.Namespaced, Kind: r.Kind, Verbs: []string{"get", "patch", "update"},
				})
			}
		}
	}
	if list.APIResources == nil {
		return nil, apierrors.NewNotFound(schema.GroupResource{}, "")
	}
	return list, nil
}

func (d *staticDiscovery) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return discovery.ServerGroupsAndResources(d)
}

func (d *staticDiscovery) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredResources(d)
}

func (d *staticDiscovery) ServerPreferredNamespacedResources() ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredNamespacedResources(d)
}

func (d *staticDiscovery) ServerVersion() (*apiversion.Info, error) {
	return nil, errors.New("static discovery: no server version")
}

func (d *staticDiscovery) OpenAPISchema() (*openapi_v2.Document, error) {
	return nil, errors.New("static discovery: no OpenAPI schema")
}

func (d *staticDiscovery) OpenAPIV3() openapi.Client { return nil }

// RESTClient returns nil: there is no aggregated document to probe for stale group-versions.
func (d *staticDiscovery) RESTClient() rest.Interface               { return nil }
func (d *staticDiscovery) WithLegacy() discovery.DiscoveryInterface { return d }
func (d *staticDiscovery) Fresh() bool                              { return true }
func (d *staticDiscovery) Invalidate()                              {}
