package discovery

import (
	"context"
	"reflect"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// TestStaleProbeNeeded: a read from the server is probed for stale group-versions only when some
// APIService's group-version is missing from it, or the APIServices are not known (issue 51: the probe read
// /apis again after every read); a read from the disk cache only when a group has no version left.
func TestStaleProbeNeeded(t *testing.T) {
	groups := &metav1.APIGroupList{Groups: []metav1.APIGroup{
		{Name: "", Versions: []metav1.GroupVersionForDiscovery{{GroupVersion: "v1", Version: "v1"}}},
		{Name: "apps", Versions: []metav1.GroupVersionForDiscovery{{GroupVersion: "apps/v1", Version: "v1"}}},
	}}
	emptied := &metav1.APIGroupList{Groups: append(slices.Clone(groups.Groups), metav1.APIGroup{Name: "broken.example.com"})}
	tests := []struct {
		name       string
		cached     bool
		groups     *metav1.APIGroupList
		registered []string
		want       bool
	}{
		{"fresh, APIServices unknown", false, groups, nil, true},
		{"fresh, every APIService listed", false, groups, []string{"v1.", "v1.apps"}, false},
		{"fresh, an APIService not listed", false, groups, []string{"v1.", "v1.apps", "v1beta1.metrics.k8s.io"}, true},
		{"fresh, a version of a listed group not listed", false, groups, []string{"v1.", "v1.apps", "v1beta1.apps"}, true},
		{"cached, every group served", true, groups, nil, false},
		{"cached, a group without versions", true, emptied, []string{"v1.", "v1.apps"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			disc := newFakeDiscovery(testServer())
			disc.cached = tt.cached
			if got := staleProbeNeeded(context.Background(), disc, tt.groups, tt.registered); got != tt.want {
				t.Errorf("staleProbeNeeded = %v, want %v", got, tt.want)
			}
		})
	}
}
