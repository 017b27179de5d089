package discovery

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ListOptions selects and orders catalog resources the way the flags of `kubectl api-resources` do.
// The zero value selects every resource, sorted by group then name (core group first).
type ListOptions struct {
	// APIGroup, when non-nil, keeps only resources of that group ("" is the core group).
	APIGroup *string
	// Namespaced, when non-nil, keeps only namespaced (true) or cluster-scoped (false) resources.
	Namespaced *bool
	// Verbs keeps only resources that support every one of these verbs.
	Verbs []string
	// Categories keeps only resources that belong to every one of these categories.
	Categories []string
	// SortBy is "" (group, then name), "name" or "kind"; ties are broken by name, then by discovery order.
	SortBy string
}

// Validate rejects a SortBy that kubectl would reject.
func (o ListOptions) Validate() error {
	if !slices.Contains([]string{"", "name", "kind"}, o.SortBy) {
		return fmt.Errorf("--sort-by accepts only name or kind")
	}
	return nil
}

// Matches tells whether r passes the options' filters.
func (o ListOptions) Matches(r Resource) bool {
	if o.APIGroup != nil && *o.APIGroup != r.Group {
		return false
	}
	if o.Namespaced != nil && *o.Namespaced != r.Namespaced {
		return false
	}
	return containsAll(r.Verbs, o.Verbs) && containsAll(r.Categories, o.Categories)
}

// Select returns the resources of rs (in discovery order) that match o, sorted as o asks. rs is not modified.
func (o ListOptions) Select(rs []Resource) []Resource {
	out := make([]Resource, 0, len(rs))
	for _, r := range rs {
		if o.Matches(r) {
			out = append(out, r)
		}
	}
	sortResources(out, o.SortBy)
	return out
}

// sortResources orders rs like kubectl api-resources: a stable sort on the key (group, name or kind) with
// ties broken by name, so equal rows keep discovery order.
func sortResources(rs []Resource, by string) {
	key := func(r Resource) string {
		switch by {
		case "name":
			return r.Name
		case "kind":
			return r.Kind
		}
		return r.Group
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if c := strings.Compare(key(rs[i]), key(rs[j])); c != 0 {
			return c < 0
		}
		return rs[i].Name < rs[j].Name
	})
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// fromPreferredLists flattens the output of ServerPreferredResources into catalog resources in discovery
// order (the server's group order), applying kubectl api-resources' row rules: subresources and resources
// without verbs are dropped. Within one group-version the input order is arbitrary, so entries are ordered
// by name there.
func fromPreferredLists(lists []*metav1.APIResourceList) []Resource {
	var out []Resource
	for _, list := range lists {
		gv, err := schema.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			continue
		}
		start := len(out)
		for _, ar := range list.APIResources {
			if len(ar.Verbs) == 0 || strings.Contains(ar.Name, "/") {
				continue
			}
			out = append(out, Resource{
				Group:        gv.Group,
				Version:      gv.Version,
				Name:         ar.Name,
				SingularName: ar.SingularName,
				Kind:         ar.Kind,
				ShortNames:   slices.Clone(ar.ShortNames),
				Categories:   slices.Clone(ar.Categories),
				Verbs:        slices.Clone([]string(ar.Verbs)),
				Namespaced:   ar.Namespaced,
			})
		}
		added := out[start:]
		sort.Slice(added, func(i, j int) bool { return added[i].Name < added[j].Name })
	}
	return out
}

// withSubresources fills each resource's Subresources from lists, the server's full resource lists
// (ServerGroupsAndResources), where they appear as "deployments/scale" in the resource's group-version.
func withSubresources(resources []Resource, lists []*metav1.APIResourceList) []Resource {
	subs := map[string][]string{} // by "group/version/resource"
	for _, list := range lists {
		if list == nil {
			continue
		}
		for _, ar := range list.APIResources {
			if parent, sub, ok := strings.Cut(ar.Name, "/"); ok {
				key := list.GroupVersion + "/" + parent
				subs[key] = append(subs[key], sub)
			}
		}
	}
	for i, r := range resources {
		if s := subs[r.APIVersion()+"/"+r.Name]; len(s) > 0 {
			resources[i].Subresources = slices.Sorted(slices.Values(s))
		}
	}
	return resources
}
