package discovery

import (
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Resource is one API resource as the catalog lists it (one row of `kubectl api-resources`).
// It is a plain value; its slices must not be modified.
type Resource struct {
	Group        string
	Version      string // the group's preferred version
	Name         string // plural, e.g. "deployments"
	SingularName string
	Kind         string
	ShortNames   []string
	Categories   []string
	Verbs        []string
	Namespaced   bool
	// Subresources names the resource's subresources in the same group-version ("scale", "status", "log").
	Subresources []string
}

// GVR returns the resource's GroupVersionResource.
func (r Resource) GVR() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Name}
}

// APIVersion returns "group/version", or "version" for the core group (the APIVERSION column).
func (r Resource) APIVersion() string {
	return schema.GroupVersion{Group: r.Group, Version: r.Version}.String()
}

// Has tells whether the resource supports verb.
func (r Resource) Has(verb string) bool {
	for _, v := range r.Verbs {
		if v == verb {
			return true
		}
	}
	return false
}

// HasSubresource tells whether the resource has the named subresource ("scale").
func (r Resource) HasSubresource(name string) bool {
	for _, s := range r.Subresources {
		if s == name {
			return true
		}
	}
	return false
}

// FullName returns "plural.group" ("pods" for the core group), the form that resolves unambiguously.
func (r Resource) FullName() string {
	if r.Group == "" {
		return r.Name
	}
	return r.Name + "." + r.Group
}

// Unavailable is a group-version that discovery could not read (a stale aggregated API, an APIService whose
// service is gone); the rest of the catalog stays usable.
type Unavailable struct {
	GroupVersion string
	Reason       string
	// Stale marks a group-version the aggregator reports as stale in aggregated discovery. kubectl (through
	// its disk cache) drops these silently; kscope names them but, like kubectl, does not fail for them.
	Stale bool
}

// IncompleteError reports the group-versions that discovery could not read. Its text is kubectl's
// ("unable to retrieve the complete list of server APIs: g/v: reason, …"), so `kscope api-resources` fails
// with the same line as `kubectl api-resources`.
type IncompleteError struct {
	Unavailable []Unavailable
}

// Error returns kubectl's one-line message, group-versions in lexical order.
func (e *IncompleteError) Error() string {
	parts := make([]string, 0, len(e.Unavailable))
	for _, u := range e.Unavailable {
		parts = append(parts, u.GroupVersion+": "+u.Reason)
	}
	sort.Strings(parts)
	return "unable to retrieve the complete list of server APIs: " + strings.Join(parts, ", ")
}
