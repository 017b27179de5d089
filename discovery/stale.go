package discovery

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

// The aggregator marks a group-version "stale" in aggregated discovery when its APIService cannot be
// reached (its Service is gone, its pods are down). client-go turns the aggregated document into legacy
// group lists and drops stale versions there, so a ServerPreferredResources read through the disk cache —
// kubectl api-resources' read — never sees them: kubectl lists the rest and says nothing. The catalog asks
// the aggregated document directly, so it can name them.

// staleProbeNeeded tells whether the last read may hide stale group-versions: it came from the server
// (fresh) and some group-version that registered names (the APIServices, "v1.apps", as the catalog's watch
// of them holds them; nil when it does not) is missing from groups; or the cached group list has a group
// without any served version (all its versions were stale). A fresh read that lists every registered
// group-version hides none: the probe would read /apis again for nothing (issue 51).
func staleProbeNeeded(ctx context.Context, disc discovery.CachedDiscoveryInterfaceWithContext, groups *metav1.APIGroupList, registered []string) bool {
	if disc.FreshWithContext(ctx) {
		return registered == nil || groups == nil || !allListed(registered, groups)
	}
	if groups != nil {
		for _, g := range groups.Groups {
			if len(g.Versions) == 0 {
				return true
			}
		}
	}
	return false
}

// allListed tells whether groups lists the group-version of each APIService name ("v1.apps"; "v1." is the
// core group's v1).
func allListed(names []string, groups *metav1.APIGroupList) bool {
	listed := map[schema.GroupVersion]bool{}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			listed[schema.GroupVersion{Group: g.Name, Version: v.Version}] = true
		}
	}
	for _, name := range names {
		version, group, _ := strings.Cut(name, ".")
		if !listed[schema.GroupVersion{Group: group, Version: version}] {
			return false
		}
	}
	return true
}

// staleGroupVersions reads /apis in aggregated form and returns the stale group-versions, each explained by
// its APIService's Available condition where the user may read it. A server without aggregated discovery,
// or any error, yields none: this only adds detail to what the read found.
func staleGroupVersions(ctx context.Context, rc rest.Interface) []Unavailable {
	if rc == nil {
		return nil
	}
	body, err := rc.Get().AbsPath("/apis").SetHeader("Accept", discovery.AcceptV2).Do(ctx).Raw()
	if err != nil {
		return nil
	}
	stale := staleFrom(body)
	for i := range stale {
		gv, _ := schema.ParseGroupVersion(stale[i].GroupVersion)
		if why := apiServiceCondition(ctx, rc, gv); why != "" {
			stale[i].Reason += " (" + why + ")"
		}
	}
	return stale
}

// staleFrom lists the versions an aggregated discovery document marks stale, sorted by group-version; a
// document of another kind yields none.
func staleFrom(body []byte) []Unavailable {
	var list apidiscoveryv2.APIGroupDiscoveryList
	if err := json.Unmarshal(body, &list); err != nil || list.Kind != "APIGroupDiscoveryList" {
		return nil
	}
	var out []Unavailable
	for _, g := range list.Items {
		for _, v := range g.Versions {
			if v.Freshness == apidiscoveryv2.DiscoveryFreshnessStale {
				gv := schema.GroupVersion{Group: g.Name, Version: v.Version}
				out = append(out, Unavailable{GroupVersion: gv.String(), Reason: staleReason(gv), Stale: true})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GroupVersion < out[j].GroupVersion })
	return out
}

// staleReason is client-go's wording for a stale group-version.
func staleReason(gv schema.GroupVersion) string {
	return fmt.Sprintf("stale GroupVersion discovery: %v", gv)
}

// apiServiceCondition returns "APIService <name>: <reason>: <message>" from the APIService serving gv when
// it is not Available, or "" (readable and available, not permitted, or absent).
func apiServiceCondition(ctx context.Context, rc rest.Interface, gv schema.GroupVersion) string {
	name := gv.Version + "." + gv.Group
	body, err := rc.Get().AbsPath("/apis/apiregistration.k8s.io/v1/apiservices", name).Do(ctx).Raw()
	if err != nil {
		return ""
	}
	var svc struct {
		Status struct {
			Conditions []metav1.Condition `json:"conditions"`
		} `json:"status"`
	}
	if json.Unmarshal(body, &svc) != nil {
		return ""
	}
	for _, c := range svc.Status.Conditions {
		if c.Type == "Available" && c.Status != metav1.ConditionTrue {
			return fmt.Sprintf("APIService %s: %s: %s", name, c.Reason, c.Message)
		}
	}
	return ""
}

// mergeUnavailable adds the stale entries not already reported, keeping the result sorted.
func mergeUnavailable(reported, stale []Unavailable) []Unavailable {
	seen := map[string]bool{}
	for _, u := range reported {
		seen[u.GroupVersion] = true
	}
	out := reported
	for _, u := range stale {
		if !seen[u.GroupVersion] {
			out = append(out, u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GroupVersion < out[j].GroupVersion })
	return out
}
