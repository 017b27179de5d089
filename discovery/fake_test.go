package discovery

import (
	"context"
	"errors"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/clientcmd"
)

// fakeDiscovery is client-go's fake discovery made deterministic and cacheable: groups come back in the
// order given (the server's priority order), with their preferred versions; chosen group-versions fail;
// Invalidate is counted. Its content can be swapped to simulate a changing server.
type fakeDiscovery struct {
	*fake.FakeDiscovery

	mu            sync.Mutex
	groups        []metav1.APIGroup
	failed        map[string]error
	down          error // when set, every request fails with it
	invalidations int
	// cached makes the client say its documents came from a disk cache (Fresh false) until it is
	// invalidated, as a CachedDiscoveryClient does: the RESTMapper then re-reads discovery for a name it
	// does not find.
	cached bool
}

var _ discovery.CachedDiscoveryInterfaceWithContext = (*fakeDiscovery)(nil)
var _ discovery.CachedDiscoveryInterface = (*fakeDiscovery)(nil)

func newFakeDiscovery(s server) *fakeDiscovery {
	f := &fakeDiscovery{FakeDiscovery: &fake.FakeDiscovery{Fake: &clienttesting.Fake{}}}
	f.set(s)
	return f
}

// server describes a fake API server: groups in priority order, each with versions (preferred first unless
// preferred is set) and their resources.
type server struct {
	groups []group
	failed map[string]error // group-version → error
}

type group struct {
	name      string
	preferred string
	versions  []version
}

type version struct {
	name      string
	resources []metav1.APIResource
}

func (f *fakeDiscovery) set(s server) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.groups = nil
	f.Resources = nil
	for _, g := range s.groups {
		ag := metav1.APIGroup{Name: g.name}
		for _, v := range g.versions {
			gv := schema.GroupVersion{Group: g.name, Version: v.name}.String()
			ag.Versions = append(ag.Versions, metav1.GroupVersionForDiscovery{GroupVersion: gv, Version: v.name})
			f.Resources = append(f.Resources, &metav1.APIResourceList{GroupVersion: gv, APIResources: v.resources})
		}
		preferred := g.preferred
		if preferred == "" {
			preferred = g.versions[0].name
		}
		ag.PreferredVersion = metav1.GroupVersionForDiscovery{
			GroupVersion: schema.GroupVersion{Group: g.name, Version: preferred}.String(), Version: preferred,
		}
		f.groups = append(f.groups, ag)
	}
	f.failed = s.failed
}

func (f *fakeDiscovery) setDown(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = err
}

func (f *fakeDiscovery) ServerGroups() (*metav1.APIGroupList, error) {
	return f.ServerGroupsWithContext(context.Background())
}

func (f *fakeDiscovery) ServerGroupsWithContext(context.Context) (*metav1.APIGroupList, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down != nil {
		return nil, f.down
	}
	return &metav1.APIGroupList{Groups: append([]metav1.APIGroup(nil), f.groups...)}, nil
}

func (f *fakeDiscovery) ServerResourcesForGroupVersion(gv string) (*metav1.APIResourceList, error) {
	return f.ServerResourcesForGroupVersionWithContext(context.Background(), gv)
}

func (f *fakeDiscovery) ServerResourcesForGroupVersionWithContext(ctx context.Context, gv string) (*metav1.APIResourceList, error) {
	f.mu.Lock()
	err := f.failed[gv]
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return f.FakeDiscovery.ServerResourcesForGroupVersionWithContext(ctx, gv)
}

func (f *fakeDiscovery) ServerGroupsAndResources() ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return f.ServerGroupsAndResourcesWithContext(context.Background())
}

func (f *fakeDiscovery) ServerGroupsAndResourcesWithContext(ctx context.Context) ([]*metav1.APIGroup, []*metav1.APIResourceList, error) {
	return discovery.ServerGroupsAndResourcesWithContext(ctx, f)
}

func (f *fakeDiscovery) ServerPreferredResources() ([]*metav1.APIResourceList, error) {
	return f.ServerPreferredResourcesWithContext(context.Background())
}

func (f *fakeDiscovery) ServerPreferredResourcesWithContext(ctx context.Context) ([]*metav1.APIResourceList, error) {
	return discovery.ServerPreferredResourcesWithContext(ctx, f)
}

func (f *fakeDiscovery) Fresh() bool { return f.FreshWithContext(context.Background()) }
func (f *fakeDiscovery) FreshWithContext(context.Context) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.cached
}
func (f *fakeDiscovery) Invalidate() { f.InvalidateWithContext(context.Background()) }
func (f *fakeDiscovery) InvalidateWithContext(context.Context) {
	f.mu.Lock()
	f.invalidations++
	f.cached = false
	f.mu.Unlock()
}
func (f *fakeDiscovery) WithLegacy() discovery.DiscoveryInterface { return f }

func (f *fakeDiscovery) invalidated() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.invalidations
}

// fakeGetter hands out the fake discovery client and the RESTMapper kubectl builds on it (deferred
// discovery mapper under the short-name expander, as cli-runtime's ConfigFlags does).
type fakeGetter struct {
	disc   *fakeDiscovery
	mapper meta.RESTMapper
}

var _ genericclioptions.RESTClientGetter = (*fakeGetter)(nil)

func newFakeGetter(s server) *fakeGetter {
	disc := newFakeDiscovery(s)
	mapper := restmapper.NewShortcutExpander(restmapper.NewDeferredDiscoveryRESTMapper(disc), disc, nil)
	return &fakeGetter{disc: disc, mapper: mapper}
}

func (g *fakeGetter) ToRESTConfig() (*rest.Config, error) {
	return nil, errors.New("no REST config in unit tests")
}
func (g *fakeGetter) ToDiscoveryClient() (discovery.CachedDiscoveryInterface, error) {
	return g.disc, nil
}
func (g *fakeGetter) ToRESTMapper() (meta.RESTMapper, error)        { return g.mapper, nil }
func (g *fakeGetter) ToRawKubeConfigLoader() clientcmd.ClientConfig { return nil }

// res builds an APIResource.
func res(name, singular, kind string, namespaced bool, verbs []string, short ...string) metav1.APIResource {
	return metav1.APIResource{Name: name, SingularName: singular, Kind: kind, Namespaced: namespaced, Verbs: verbs, ShortNames: short}
}

func withCategories(r metav1.APIResource, c ...string) metav1.APIResource {
	r.Categories = c
	return r
}

var (
	rw    = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
	ro    = []string{"get", "list"}
	cOnly = []string{"create"}
)

// testServer is a small cluster: core and built-in groups in kube-apiserver's priority order, a group
// whose preferred version is not its first, and two CRD groups sharing a short name, listed in an order
// that is not alphabetical.
func testServer() server {
	return server{groups: []group{
		{name: "", versions: []version{{"v1", []metav1.APIResource{
			withCategories(res("pods", "pod", "Pod", true, rw, "po"), "all"),
			res("pods/log", "", "Pod", true, []string{"get"}),
			res("podtemplates", "podtemplate", "PodTemplate", true, rw),
			withCategories(res("services", "service", "Service", true, rw, "svc"), "all"),
			res("events", "event", "Event", true, rw, "ev"),
			res("configmaps", "configmap", "ConfigMap", true, rw, "cm"),
			res("namespaces", "namespace", "Namespace", false, rw, "ns"),
			res("bindings", "binding", "Binding", true, cOnly),
			res("componentstatuses", "componentstatus", "ComponentStatus", false, ro, "cs"),
		}}}},
		{name: "apps", versions: []version{{"v1", []metav1.APIResource{
			withCategories(res("deployments", "deployment", "Deployment", true, rw, "deploy"), "all"),
			res("deployments/scale", "", "Scale", true, []string{"get", "patch", "update"}),
			withCategories(res("replicasets", "replicaset", "ReplicaSet", true, rw, "rs"), "all"),
		}}}},
		{name: "events.k8s.io", versions: []version{{"v1", []metav1.APIResource{
			res("events", "event", "Event", true, rw, "ev"),
		}}}},
		{name: "autoscaling", preferred: "v2", versions: []version{
			{"v1", []metav1.APIResource{res("horizontalpodautoscalers", "horizontalpodautoscaler", "HorizontalPodAutoscaler", true, rw, "hpa")}},
			{"v2", []metav1.APIResource{res("horizontalpodautoscalers", "horizontalpodautoscaler", "HorizontalPodAutoscaler", true, rw, "hpa")}},
		}},
		{name: "batch", versions: []version{
			{"v1", []metav1.APIResource{res("jobs", "job", "Job", true, rw)}},
			{"v1beta1", []metav1.APIResource{res("cronjobs", "cronjob", "CronJob", true, rw, "cj")}},
		}},
		{name: "authentication.k8s.io", versions: []version{{"v1", []metav1.APIResource{
			res("tokenreviews", "tokenreview", "TokenReview", false, cOnly),
		}}}},
		{name: "shop.example.com", versions: []version{{"v1", []metav1.APIResource{
			withCategories(res("widgets", "widget", "Widget", true, rw, "wd"), "all", "shop"),
			res("ghosts", "ghost", "Ghost", true, nil),
		}}}},
		{name: "amb.example.com", versions: []version{{"v1", []metav1.APIResource{
			res("foo", "bar", "Bar", true, rw),
			res("foos", "foo", "Foo", true, rw),
		}}}},
		{name: "other.example.com", versions: []version{{"v1", []metav1.APIResource{
			res("widgets", "widget", "Widget", false, ro, "wd"),
			res("gadgets", "gadget", "Gadget", false, rw, "gd"),
		}}}},
	}}
}
