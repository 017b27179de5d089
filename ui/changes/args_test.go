package changes

import (
	"slices"
	"strings"
	"testing"

	"kscope/discovery"
)

// TestFeedKinds: the feed watches every kind that can be listed and watched, once, but events and leases
// (a change every few seconds of no one's making); kind= watches only the kinds it names, those too; a
// kind= that names none is an error.
func TestFeedKinds(t *testing.T) {
	lw := []string{"get", "list", "watch"}
	resources := []discovery.Resource{
		{Version: "v1", Name: "configmaps", Kind: "ConfigMap", Namespaced: true, Verbs: lw},
		{Version: "v1", Name: "events", Kind: "Event", Namespaced: true, Verbs: lw},
		{Group: "events.k8s.io", Version: "v1", Name: "events", Kind: "Event", Namespaced: true, Verbs: lw},
		{Group: "coordination.k8s.io", Version: "v1", Name: "leases", Kind: "Lease", Namespaced: true, Verbs: lw},
		{Group: "shop.example.com", Version: "v1", Name: "leases", Kind: "Lease", Namespaced: true, Verbs: lw},
		{Group: "apps", Version: "v1", Name: "deployments", Kind: "Deployment", Namespaced: true, Verbs: lw},
		{Group: "apps", Version: "v1", Name: "deployments", Kind: "Deployment", Namespaced: true, Verbs: lw},
		{Version: "v1", Name: "bindings", Kind: "Binding", Namespaced: true, Verbs: []string{"create"}},
		{Version: "v1", Name: "namespaces", Kind: "Namespace", Verbs: lw},
	}
	tests := []struct {
		kind string
		want []string
		err  string
	}{
		{"", []string{"configmaps", "leases.shop.example.com", "deployments.apps", "namespaces"}, ""},
		{"leases", []string{"leases.coordination.k8s.io", "leases.shop.example.com"}, ""},
		{"leases.coordination.k8s.io", []string{"leases.coordination.k8s.io"}, ""},
		{"Event", []string{"events", "events.events.k8s.io"}, ""},
		{"widgets", nil, "kind=widgets: no kind of that name can be listed and watched"},
		{"deployment", []string{"deployments.apps"}, ""},
		{"bindings", nil, "kind=bindings: no kind"},
	}
	for _, tt := range tests {
		kinds, err := feedKinds(resources, query{kind: tt.kind})
		var got []string
		for _, k := range kinds {
			got = append(got, k.Name())
		}
		switch {
		case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)):
			t.Errorf("kind=%q: error %v, want %q", tt.kind, err, tt.err)
		case tt.err == "" && (err != nil || !slices.Equal(got, tt.want)):
			t.Errorf("kind=%q: %q, %v; want %q", tt.kind, got, err, tt.want)
		}
	}
}
