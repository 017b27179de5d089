package discovery

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestResolve(t *testing.T) {
	c, _ := loadedCatalog(t, testServer())
	tests := []struct {
		input string
		want  string // FullName@Version
	}{
		{"pods", "pods@v1"},
		{"pod", "pods@v1"},
		{"po", "pods@v1"},
		{"Pod", "pods@v1"},
		{"PODS", "pods@v1"},
		{"PO", "pods@v1"}, // kubectl is case-sensitive here; kscope is not
		{"deployments", "deployments.apps@v1"},
		{"deploy", "deployments.apps@v1"},
		{"Deployment", "deployments.apps@v1"},
		{"deployments.apps", "deployments.apps@v1"},
		{"deploy.apps", "deployments.apps@v1"},
		{"deployments.v1.apps", "deployments.apps@v1"},
		{"Deployment.v1.apps", "deployments.apps@v1"},
		{"Deployment.apps", "deployments.apps@v1"},
		{"hpa", "horizontalpodautoscalers.autoscaling@v2"}, // preferred version
		{"horizontalpodautoscalers.v1.autoscaling", "horizontalpodautoscalers.autoscaling@v1"}, // requested version
		{"cj", "cronjobs.batch@v1beta1"},
		{"events", "events@v1"},                             // core preferred over events.k8s.io
		{"ev", "events@v1"},                                 // short name in both: higher priority group
		{"events.events.k8s.io", "events.events.k8s.io@v1"}, // group given
		{"Event.events.k8s.io", "events.events.k8s.io@v1"},  // Kind.group
		{"wd", "widgets.shop.example.com@v1"},               // shop listed before other by the server
		{"widget", "widgets.shop.example.com@v1"},
		{"widgets.other.example.com", "widgets.other.example.com@v1"},
		{"wd.other.example.com", "widgets.other.example.com@v1"},
		{"Widget.other.example.com", "widgets.other.example.com@v1"},
		{"gd", "gadgets.other.example.com@v1"},
		{"  ns ", "namespaces@v1"},
		{"cs", "componentstatuses@v1"},
		{"bar", "foo.amb.example.com@v1"}, // singular of "foo"
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			r, err := c.Resolve(context.Background(), tt.input)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.input, err)
			}
			if got := r.FullName() + "@" + r.Version; got != tt.want {
				t.Errorf("Resolve(%q) = %s, want %s", tt.input, got, tt.want)
			}
		})
	}
}

func TestResolveReturnsCatalogEntry(t *testing.T) {
	c, _ := loadedCatalog(t, testServer())
	r, err := c.Resolve(context.Background(), "svc")
	if err != nil {
		t.Fatal(err)
	}
	want := Resource{Version: "v1", Name: "services", SingularName: "service", Kind: "Service",
		ShortNames: []string{"svc"}, Categories: []string{"all"}, Verbs: rw, Namespaced: true}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("Resolve(svc) = %+v, want %+v", r, want)
	}
}

func TestResolveAmbiguous(t *testing.T) {
	// kubectl's discovery mapper ranks every group, so it always picks one; a mapper without a ranking
	// (here a plain union of per-group mappers) reports ambiguity, which Resolve passes on.
	g := newFakeGetter(testServer())
	shop, other := meta.NewDefaultRESTMapper(nil), meta.NewDefaultRESTMapper(nil)
	shop.Add(schema.GroupVersionKind{Group: "shop.example.com", Version: "v1", Kind: "Widget"}, meta.RESTScopeNamespace)
	other.Add(schema.GroupVersionKind{Group: "other.example.com", Version: "v1", Kind: "Widget"}, meta.RESTScopeRoot)
	g.mapper = meta.MultiRESTMapper{shop, other}
	c := NewCatalog(g)
	if err := c.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := c.Resolve(context.Background(), "widgets")
	var amb *AmbiguousError
	if !errors.As(err, &amb) {
		t.Fatalf("Resolve(widgets) = %v, want *AmbiguousError", err)
	}
	if got := fullNames(amb.Candidates); got != "widgets.shop.example.com@v1 widgets.other.example.com@v1" {
		t.Errorf("candidates = %s", got)
	}
	want := `resource "widgets" is ambiguous (could be widgets.shop.example.com, widgets.other.example.com)`
	if err.Error() != want {
		t.Errorf("Error()\n got %s\nwant %s", err.Error(), want)
	}
}

func TestResolveSameNameInOneGroupVersionIsNotAmbiguous(t *testing.T) {
	// "foo" is the plural of one resource and the singular of another: the mapper keeps the later one.
	c, _ := loadedCatalog(t, testServer())
	r, err := c.Resolve(context.Background(), "foo")
	if err != nil || r.FullName() != "foos.amb.example.com" {
		t.Errorf("Resolve(foo) = %s, %v", r.FullName(), err)
	}
}

func TestResolveNotFound(t *testing.T) {
	c, _ := loadedCatalog(t, testServer())
	tests := []struct {
		input string
		want  string
	}{
		{"podz", `unknown resource "podz" (did you mean pods, podtemplates?)`},
		{"deploymnts", `unknown resource "deploymnts" (did you mean deployments?)`},
		{"servce", `unknown resource "servce" (did you mean services?)`},
		{"widgetz", `unknown resource "widgetz" (did you mean widgets.shop.example.com, widgets.other.example.com?)`},
		{"eventz", `unknown resource "eventz" (did you mean events, events.events.k8s.io?)`},
		{"xyzzy", `unknown resource "xyzzy"`},
		{"", `unknown resource ""`},
		{"widgets.nope.example.com", `unknown resource "widgets.nope.example.com" (did you mean widgets.shop.example.com, widgets.other.example.com?)`},
		{"wodgets.shop.example.com", `unknown resource "wodgets.shop.example.com" (did you mean widgets.shop.example.com, widgets.other.example.com?)`},
		{"widgets.othr", `unknown resource "widgets.othr" (did you mean widgets.other.example.com, widgets.shop.example.com?)`},
		{"pods.v2", `unknown resource "pods.v2" (did you mean pods, podtemplates?)`},
		{"hp", `unknown resource "hp" (did you mean horizontalpodautoscalers?)`},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			_, err := c.Resolve(context.Background(), tt.input)
			var nf *NotFoundError
			if !errors.As(err, &nf) {
				t.Fatalf("Resolve(%q) = %v, want *NotFoundError", tt.input, err)
			}
			if err.Error() != tt.want {
				t.Errorf("Error()\n got %s\nwant %s", err.Error(), tt.want)
			}
		})
	}
}

func TestResolveUnknownNameRereadsDiscoveryAtMostEvery10s(t *testing.T) {
	c, g := loadedCatalog(t, testServer())
	if _, err := c.Resolve(context.Background(), "po"); err != nil { // the mapper reads discovery now
		t.Fatal(err)
	}
	s := testServer()
	s.groups[6].versions[0].resources = append(s.groups[6].versions[0].resources, res("gizmos", "gizmo", "Gizmo", true, rw, "gz"))
	g.disc.set(s)
	if _, err := c.Resolve(context.Background(), "gz"); err == nil {
		t.Fatal("a name unknown at Load resolved before any re-read")
	}
	if n := g.disc.invalidated(); n != 0 {
		t.Fatalf("re-read %d times within 10 s of Load", n)
	}
	c.mu.Lock()
	c.refreshedAt = c.refreshedAt.Add(-onDemandRefreshInterval - 1)
	c.mu.Unlock()
	r, err := c.Resolve(context.Background(), "gz")
	if err != nil || r.FullName() != "gizmos.shop.example.com" {
		t.Fatalf("Resolve(gz) after the interval = %s, %v", r.FullName(), err)
	}
	if _, ok := c.lookup("shop.example.com", "gizmos"); !ok {
		t.Error("the catalog was not refreshed")
	}
}

// TestResolveNameTheMapperFoundSinceTheCatalogRead: a CRD created since the catalog read a cached discovery
// is found by the RESTMapper, which reads discovery again for a name it lacks; the catalog then reads it
// again too, and the resource comes with its verbs (a table opens on it), not as a bare mapping.
func TestResolveNameTheMapperFoundSinceTheCatalogRead(t *testing.T) {
	g := newFakeGetter(testServer())
	g.disc.cached = true
	c := NewCatalog(g)
	if err := c.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := testServer()
	s.groups[6].versions[0].resources = append(s.groups[6].versions[0].resources, res("gizmos", "gizmo", "Gizmo", true, rw, "gz"))
	g.disc.set(s)
	r, err := c.Resolve(context.Background(), "gizmos.shop.example.com")
	if err != nil {
		t.Fatal(err)
	}
	if r.FullName() != "gizmos.shop.example.com" || !r.Has("list") || !r.Has("watch") || len(r.ShortNames) != 1 {
		t.Errorf("Resolve = %+v, want the catalog's gizmos with their verbs and short name", r)
	}
	if _, ok := c.lookup("shop.example.com", "gizmos"); !ok {
		t.Error("the catalog was not refreshed")
	}
}
