package discovery

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/discovery"
)

func loadedCatalog(t *testing.T, s server) (*Catalog, *fakeGetter) {
	t.Helper()
	g := newFakeGetter(s)
	c := NewCatalog(g)
	if err := c.Load(context.Background()); err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c, g
}

func fullNames(rs []Resource) string {
	names := make([]string, 0, len(rs))
	for _, r := range rs {
		names = append(names, r.FullName()+"@"+r.Version)
	}
	return strings.Join(names, " ")
}

func TestCatalogResourcesFollowKubectlRowRules(t *testing.T) {
	c, _ := loadedCatalog(t, testServer())
	// One row per group-resource at the preferred version (hpa at v2, cronjobs only in v1beta1),
	// no subresources (they are listed on their resource), no verb-less resources, sorted by group then name with the core group first.
	want := "bindings@v1 componentstatuses@v1 configmaps@v1 events@v1 namespaces@v1 pods@v1 podtemplates@v1 services@v1 " +
		"foo.amb.example.com@v1 foos.amb.example.com@v1 " +
		"deployments.apps@v1 replicasets.apps@v1 " +
		"tokenreviews.authentication.k8s.io@v1 " +
		"horizontalpodautoscalers.autoscaling@v2 " +
		"cronjobs.batch@v1beta1 jobs.batch@v1 " +
		"events.events.k8s.io@v1 " +
		"gadgets.other.example.com@v1 widgets.other.example.com@v1 " +
		"widgets.shop.example.com@v1"
	if got := fullNames(c.Resources()); got != want {
		t.Errorf("Resources()\n got %s\nwant %s", got, want)
	}
	pods, _ := c.lookup("", "pods")
	wantPods := Resource{Group: "", Version: "v1", Name: "pods", SingularName: "pod", Kind: "Pod",
		ShortNames: []string{"po"}, Categories: []string{"all"}, Verbs: rw, Namespaced: true, Subresources: []string{"log"}}
	if !reflect.DeepEqual(pods, wantPods) {
		t.Errorf("pods = %+v, want %+v", pods, wantPods)
	}
	if u := c.Unavailable(); u != nil {
		t.Errorf("Unavailable() = %v, want none", u)
	}
}

func TestCatalogList(t *testing.T) {
	c, _ := loadedCatalog(t, testServer())
	core, apps, none := "", "apps", "nope.example.com"
	yes, no := true, false
	tests := []struct {
		name string
		opts ListOptions
		want string
	}{
		{"api group core", ListOptions{APIGroup: &core, Namespaced: &no}, "componentstatuses@v1 namespaces@v1"},
		{"api group apps", ListOptions{APIGroup: &apps}, "deployments.apps@v1 replicasets.apps@v1"},
		{"unknown api group", ListOptions{APIGroup: &none}, ""},
		{"cluster-scoped", ListOptions{Namespaced: &no},
			"componentstatuses@v1 namespaces@v1 tokenreviews.authentication.k8s.io@v1 gadgets.other.example.com@v1 widgets.other.example.com@v1"},
		{"namespaced in shop", ListOptions{Namespaced: &yes, Categories: []string{"shop"}}, "widgets.shop.example.com@v1"},
		{"verbs all required", ListOptions{Verbs: []string{"get", "list"}, Namespaced: &no},
			"componentstatuses@v1 namespaces@v1 gadgets.other.example.com@v1 widgets.other.example.com@v1"},
		{"verbs create only", ListOptions{Verbs: []string{"create"}, Namespaced: &no}, "namespaces@v1 tokenreviews.authentication.k8s.io@v1 gadgets.other.example.com@v1"},
		{"categories all", ListOptions{Categories: []string{"all"}},
			"pods@v1 services@v1 deployments.apps@v1 replicasets.apps@v1 widgets.shop.example.com@v1"},
		{"categories all and shop", ListOptions{Categories: []string{"all", "shop"}}, "widgets.shop.example.com@v1"},
		// Ties keep discovery order: core events before events.k8s.io, shop widgets before other widgets
		// (shop.example.com is listed first by the server, though "other" sorts first).
		{"sort by name", ListOptions{SortBy: "name", Verbs: []string{"watch"}},
			"configmaps@v1 cronjobs.batch@v1beta1 deployments.apps@v1 events@v1 events.events.k8s.io@v1 foo.amb.example.com@v1 " +
				"foos.amb.example.com@v1 gadgets.other.example.com@v1 horizontalpodautoscalers.autoscaling@v2 jobs.batch@v1 " +
				"namespaces@v1 pods@v1 podtemplates@v1 replicasets.apps@v1 services@v1 widgets.shop.example.com@v1"},
		{"sort by kind", ListOptions{SortBy: "kind", Categories: []string{"all"}},
			"deployments.apps@v1 pods@v1 replicasets.apps@v1 services@v1 widgets.shop.example.com@v1"},
		{"sort by kind, cluster-scoped", ListOptions{SortBy: "kind", Verbs: []string{"list"}, Namespaced: &no},
			"componentstatuses@v1 gadgets.other.example.com@v1 namespaces@v1 widgets.other.example.com@v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fullNames(c.List(tt.opts)); got != tt.want {
				t.Errorf("List\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestListOptionsSortKeepsServerOrderForTies(t *testing.T) {
	c, _ := loadedCatalog(t, testServer())
	// shop.example.com comes before other.example.com in the server's order, though not alphabetically.
	for _, by := range []string{"name", "kind"} {
		got := fullNames(c.List(ListOptions{SortBy: by, Verbs: []string{"get"}}))
		if !strings.Contains(got, "widgets.shop.example.com@v1 widgets.other.example.com@v1") {
			t.Errorf("sort by %s: equal rows not in server order: %s", by, got)
		}
		if !strings.Contains(got, "events@v1 events.events.k8s.io@v1") {
			t.Errorf("sort by %s: core events not first: %s", by, got)
		}
	}
}

func TestListOptionsValidate(t *testing.T) {
	for _, by := range []string{"", "name", "kind"} {
		if err := (ListOptions{SortBy: by}).Validate(); err != nil {
			t.Errorf("SortBy %q: %v", by, err)
		}
	}
	err := ListOptions{SortBy: "age"}.Validate()
	if err == nil || err.Error() != "--sort-by accepts only name or kind" {
		t.Errorf("SortBy age: %v", err)
	}
}

func TestCatalogUnavailableKeepsTheRest(t *testing.T) {
	s := testServer()
	stale := discovery.StaleGroupVersionError{}
	s.failed = map[string]error{
		"shop.example.com/v1": errors.New("the server is currently unable to handle the request"),
		"batch/v1":            stale,
	}
	c, _ := loadedCatalog(t, s)
	want := []Unavailable{
		{GroupVersion: "batch/v1", Reason: stale.Error()},
		{GroupVersion: "shop.example.com/v1", Reason: "the server is currently unable to handle the request"},
	}
	if got := c.Unavailable(); !reflect.DeepEqual(got, want) {
		t.Errorf("Unavailable() = %#v, want %#v", got, want)
	}
	if _, ok := c.lookup("shop.example.com", "widgets"); ok {
		t.Error("widgets of the failed group-version are listed")
	}
	if _, ok := c.lookup("apps", "deployments"); !ok {
		t.Error("deployments missing although apps did not fail")
	}
	// The message equals client-go's (and so kubectl's) for the same failure.
	_, err := discovery.ServerPreferredResources(newFakeDiscovery(s))
	if got := (&IncompleteError{Unavailable: c.Unavailable()}).Error(); got != err.Error() {
		t.Errorf("IncompleteError = %q\n   client-go says %q", got, err.Error())
	}
}

func TestCatalogLoadIsCachedAndRefreshInvalidates(t *testing.T) {
	c, g := loadedCatalog(t, testServer())
	s := testServer()
	s.groups[6].versions[0].resources = append(s.groups[6].versions[0].resources, res("gizmos", "gizmo", "Gizmo", true, rw))
	g.disc.set(s)
	if err := c.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.lookup("shop.example.com", "gizmos"); ok {
		t.Fatal("second Load read again")
	}
	if n := g.disc.invalidated(); n != 0 {
		t.Fatalf("Load invalidated the discovery cache %d times", n)
	}
	if err := c.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if g.disc.invalidated() == 0 {
		t.Error("Refresh did not invalidate the discovery cache")
	}
	if _, ok := c.lookup("shop.example.com", "gizmos"); !ok {
		t.Error("Refresh did not pick up gizmos")
	}
	if r, err := c.Resolve(context.Background(), "gizmo"); err != nil || r.Name != "gizmos" {
		t.Errorf("Resolve(gizmo) after Refresh = %v, %v (RESTMapper not reset?)", r.FullName(), err)
	}
	g.disc.set(testServer())
	if err := c.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	var nf *NotFoundError
	if _, err := c.Resolve(context.Background(), "gizmo"); !errors.As(err, &nf) {
		t.Errorf("Resolve(gizmo) after its removal = %v, want *NotFoundError (stale remembered resolution?)", err)
	}
}

func TestSubscribeCalledOnChangeOnly(t *testing.T) {
	g := newFakeGetter(testServer())
	c := NewCatalog(g)
	calls := make(chan struct{}, 10)
	cancel := c.Subscribe(func() { calls <- struct{}{} })
	ctx := context.Background()
	if err := c.Load(ctx); err != nil {
		t.Fatal(err)
	}
	expectCall(t, calls, "first Load")
	if err := c.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	expectNoCall(t, calls, "Refresh without change")
	s := testServer()
	s.failed = map[string]error{"apps/v1": errors.New("boom")}
	g.disc.set(s)
	if err := c.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	expectCall(t, calls, "Refresh with a failed group")
	cancel()
	cancel() // idempotent
	g.disc.set(testServer())
	if err := c.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	expectNoCall(t, calls, "after cancel")
}

func TestSubscribeRunsOnAnotherGoroutine(t *testing.T) {
	g := newFakeGetter(testServer())
	c := NewCatalog(g)
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	defer c.Subscribe(func() {
		entered <- struct{}{}
		<-release // a subscriber that blocks must not block Refresh
	})()
	done := make(chan error, 1)
	go func() { done <- c.Load(context.Background()) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Load blocked on a subscriber")
	}
	expectCall(t, entered, "subscriber")
	close(release)
}

func TestRefreshErrorKeepsContent(t *testing.T) {
	c, g := loadedCatalog(t, testServer())
	g.disc.setDown(errors.New("connection refused"))
	before := c.Resources()
	_ = c.Refresh(context.Background())
	if got := c.Resources(); !reflect.DeepEqual(got, before) {
		t.Errorf("content changed after a failed refresh")
	}
}

func TestLoadHonoursContext(t *testing.T) {
	c := NewCatalog(newFakeGetter(testServer()))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Load(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Load with a cancelled context = %v", err)
	}
	if c.Resources() != nil && len(c.Resources()) != 0 {
		t.Error("a cancelled Load installed content")
	}
}

func expectCall(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: subscriber not called", what)
	}
}

func expectNoCall(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
		t.Fatalf("%s: subscriber called", what)
	case <-time.After(200 * time.Millisecond):
	}
}
