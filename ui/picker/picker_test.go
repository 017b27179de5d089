package picker

import (
	"testing"

	"kscope/discovery"
)

func TestMatchesAndExact(t *testing.T) {
	deploy := discovery.Resource{Group: "apps", Version: "v1", Name: "deployments", SingularName: "deployment",
		Kind: "Deployment", ShortNames: []string{"deploy"}, Verbs: []string{"list", "watch"}}
	for _, tc := range []struct {
		filter         string
		matches, exact bool
	}{
		{"", true, false},
		{"deploy", true, true},
		{"DEPLOY", true, true}, // case-insensitive
		{"ploym", true, false},
		{"apps", true, false},
		{"deployment", true, true},
		{"deployments.apps", false, true},
		{"pods", false, false},
	} {
		if got := matchesResource(deploy, tc.filter); got != tc.matches {
			t.Errorf("matchesResource(%q) = %v, want %v", tc.filter, got, tc.matches)
		}
		if tc.filter == "" {
			continue
		}
		if got := exactResource(deploy, tc.filter); got != tc.exact {
			t.Errorf("exactResource(%q) = %v, want %v", tc.filter, got, tc.exact)
		}
	}
}

func TestUnlistable(t *testing.T) {
	for _, tc := range []struct {
		verbs []string
		want  string
	}{
		{[]string{"get", "list", "watch"}, ""},
		{[]string{"create"}, "no list/watch (verbs: create)"},
		{[]string{"list"}, "no watch (verbs: list)"},
	} {
		if got := Unlistable(discovery.Resource{Verbs: tc.verbs}); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.verbs, got, tc.want)
		}
	}
}
