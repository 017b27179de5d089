package discovery

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// resolution is what Resolve answered: the resource at its version, or the error's type and text.
func resolution(r Resource, err error) string {
	if err != nil {
		return fmt.Sprintf("%T: %s", err, err)
	}
	return r.FullName() + "@" + r.Version
}

// TestStaticCatalogResolvesAsCatalog: for the resources a server-backed catalog lists, a StaticCatalog
// resolves every input to the same resource, or fails with the same error type and text.
func TestStaticCatalogResolvesAsCatalog(t *testing.T) {
	s := testServer()
	s.groups = append(s.groups, group{name: "broken.example.com", versions: []version{{"v1alpha1", nil}}})
	s.failed = map[string]error{"broken.example.com/v1alpha1": errors.New("the server is currently unable to handle the request")}
	real, _ := loadedCatalog(t, s)
	resources, _ := real.snapshot()
	static := NewStaticCatalog(resources...)
	static.SetUnavailable(real.Unavailable()...)

	if got, want := fullNames(static.Resources()), fullNames(real.Resources()); got != want {
		t.Errorf("Resources()\n static %s\n   real %s", got, want)
	}
	if got, want := static.Unavailable(), real.Unavailable(); !reflect.DeepEqual(got, want) {
		t.Errorf("Unavailable() = %+v, want %+v", got, want)
	}
	inputs := []string{
		"pods", "pod", "po", "Pod", "PO", "deploy", "Deployment", "deployments.apps", "deployments.v1.apps",
		"Deployment.v1.apps", "hpa", "cj", "events", "ev", "events.events.k8s.io", "wd", "widget",
		"widgets.other.example.com", "wd.other.example.com", "gd", " ns ", "bar", "foo", "foos",
		"podz", "deploymnts", "wdgets", "widgets.shp", "xyz", "", "things.broken.example.com",
		"broken.example.com", "tokenreviews",
	}
	for _, in := range inputs {
		want := resolution(real.Resolve(context.Background(), in))
		if got := resolution(static.Resolve(context.Background(), in)); got != want {
			t.Errorf("Resolve(%q)\n static %s\n   real %s", in, got, want)
		}
	}
	if _, err := static.Resolve(context.Background(), "podz"); err == nil ||
		err.Error() != `unknown resource "podz" (did you mean pods, podtemplates?)` {
		t.Errorf("Resolve(podz) = %v", err)
	}
	var nf *NotFoundError
	if _, err := static.Resolve(context.Background(), "podz"); !errors.As(err, &nf) || !reflect.DeepEqual(nf.Suggestions, []string{"pods", "podtemplates"}) {
		t.Errorf("Resolve(podz): %#v, want a *NotFoundError suggesting pods, podtemplates", err)
	}
}

// TestStaticCatalogVerbless: as from a server, a resource without verbs is not listed but resolves.
func TestStaticCatalogVerbless(t *testing.T) {
	c := NewStaticCatalog(Resource{Group: "shop.example.com", Version: "v1", Name: "ghosts", SingularName: "ghost",
		Kind: "Ghost", Namespaced: true})
	if got := c.Resources(); len(got) != 0 {
		t.Errorf("Resources() = %v, want none", got)
	}
	if r, err := c.Resolve(context.Background(), "ghost"); err != nil || r.FullName() != "ghosts.shop.example.com" {
		t.Errorf("Resolve(ghost) = %v, %v", r.FullName(), err)
	}
}

func TestStaticCatalogChanges(t *testing.T) {
	verbs := []string{"get", "list", "watch"}
	pods := Resource{Version: "v1", Name: "pods", SingularName: "pod", Kind: "Pod", ShortNames: []string{"po"}, Verbs: verbs, Namespaced: true}
	gadgets := Resource{Group: "shop.example.com", Version: "v1", Name: "gadgets", SingularName: "gadget", Kind: "Gadget",
		Verbs: verbs, Namespaced: true}
	c := NewStaticCatalog(pods)
	calls := make(chan struct{}, 10)
	defer c.Subscribe(func() { calls <- struct{}{} })()

	if _, err := c.Resolve(context.Background(), "gadgets"); err == nil {
		t.Fatal("gadgets resolved before it was added")
	}
	c.Add(gadgets)
	expectCall(t, calls, "Add")
	if r, err := c.Resolve(context.Background(), "gadget"); err != nil || r.FullName() != "gadgets.shop.example.com" {
		t.Errorf("after Add: Resolve(gadget) = %v, %v", r.FullName(), err)
	}
	if got := fullNames(c.Resources()); got != "pods@v1 gadgets.shop.example.com@v1" {
		t.Errorf("after Add: %s", got)
	}

	c.SetUnavailable(Unavailable{GroupVersion: "metrics.k8s.io/v1beta1", Reason: "service unavailable"})
	expectCall(t, calls, "SetUnavailable")
	want := []Unavailable{{GroupVersion: "metrics.k8s.io/v1beta1", Reason: "service unavailable"}}
	if got := c.Unavailable(); !reflect.DeepEqual(got, want) {
		t.Errorf("Unavailable() = %+v, want %+v", got, want)
	}

	c.Set(pods)
	expectCall(t, calls, "Set")
	if got := fullNames(c.Resources()); got != "pods@v1" {
		t.Errorf("after Set: %s", got)
	}
	c.Set(pods) // no change: no call
	select {
	case <-calls:
		t.Error("subscriber called for an unchanged catalog")
	case <-time.After(100 * time.Millisecond):
	}
}
