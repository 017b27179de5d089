package discovery

import (
	"reflect"
	"testing"
)

func TestStaleFrom(t *testing.T) {
	doc := `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","items":[
 {"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[],"freshness":"Current"}]},
 {"metadata":{"name":"z.example.com"},"versions":[{"version":"v1","freshness":"Current"},{"version":"v1beta1","freshness":"Stale"}]},
 {"metadata":{"name":"broken.example.com"},"versions":[{"version":"v1alpha1","freshness":"Stale"}]}]}`
	want := []Unavailable{
		{GroupVersion: "broken.example.com/v1alpha1", Reason: "stale GroupVersion discovery: broken.example.com/v1alpha1", Stale: true},
		{GroupVersion: "z.example.com/v1beta1", Reason: "stale GroupVersion discovery: z.example.com/v1beta1", Stale: true},
	}
	if got := staleFrom([]byte(doc)); !reflect.DeepEqual(got, want) {
		t.Errorf("staleFrom = %#v, want %#v", got, want)
	}
	for _, other := range []string{`{"kind":"APIGroupList","groups":[]}`, `not json`, ``} {
		if got := staleFrom([]byte(other)); got != nil {
			t.Errorf("staleFrom(%q) = %v, want none", other, got)
		}
	}
}

func TestMergeUnavailable(t *testing.T) {
	reported := []Unavailable{{GroupVersion: "b/v1", Reason: "boom"}}
	stale := []Unavailable{{GroupVersion: "c/v1", Stale: true}, {GroupVersion: "b/v1", Stale: true}, {GroupVersion: "a/v1", Stale: true}}
	want := []Unavailable{{GroupVersion: "a/v1", Stale: true}, {GroupVersion: "b/v1", Reason: "boom"}, {GroupVersion: "c/v1", Stale: true}}
	if got := mergeUnavailable(reported, stale); !reflect.DeepEqual(got, want) {
		t.Errorf("mergeUnavailable = %v, want %v", got, want)
	}
}
