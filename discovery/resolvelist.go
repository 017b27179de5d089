package discovery

import (
	"context"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/restmapper"
)

// List is what a comma-separated list of resource names and categories resolved to (`deploy,sts,ds`,
// `all`), as `kubectl get` resolves its first argument. It is a plain value.
type List struct {
	// Entries are the list's names in the order given, each with what it resolved to.
	Entries []ListEntry
	// Resources are the resources named, each once (the first time it is named), in the order named; a
	// category's in the order discovery serves them.
	Resources []Resource
}

// ListEntry is one name of a List.
type ListEntry struct {
	// Input is the name as given (trimmed).
	Input string
	// Category tells whether Input named a category (its resources are those discovery lists in it).
	Category bool
	// Resources is the resource Input named, or a category's resources.
	Resources []Resource
	// canonical is Input for a category, else the resource's FullName, or "resource.version.group" when
	// Input asked for a version other than the preferred one.
	canonical string
}

// Union tells whether the list shows several resources in one table: it names more than one resource, or
// a category (even one of a single resource, as kubectl prints it).
func (l List) Union() bool {
	if len(l.Resources) > 1 {
		return true
	}
	for _, e := range l.Entries {
		if e.Category {
			return true
		}
	}
	return false
}

// Canonical returns the list in a form that resolves to the same resources without ambiguity: a category
// as named, a resource as its FullName ("deployments.apps"), joined by commas.
func (l List) Canonical() string {
	names := make([]string, 0, len(l.Entries))
	for _, e := range l.Entries {
		names = append(names, e.canonical)
	}
	return strings.Join(names, ",")
}

// ResolveList resolves a comma-separated list of names as `kubectl get a,b,c` does: a name that is a
// category of discovery (`all`, a CRD's categories) stands for the resources in it, found with kubectl's
// own category expander (restmapper's, over the discovery documents) and each mapped as "resource.group";
// any other name is resolved by Resolve (short names, singular, Kind, "res.group"). A resource named twice
// is listed once. A name that resolves to nothing fails the whole list with Resolve's error naming it
// (*NotFoundError, *AmbiguousError); an empty name is unknown. It loads the catalog if needed and may read
// from the server, until ctx ends (30 s at most).
func (c *Catalog) ResolveList(ctx context.Context, input string) (List, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := c.Load(ctx); err != nil {
		return List{}, err
	}
	var l List
	seen := map[schema.GroupResource]bool{}
	for _, name := range strings.Split(input, ",") {
		e := ListEntry{Input: strings.TrimSpace(name)}
		names := []string{e.Input}
		if grs, ok := c.expandCategory(ctx, e.Input); ok {
			e.Category = true
			names = names[:0]
			for _, gr := range grs {
				if n := gr.String(); !slices.Contains(names, n) { // (a resource served in several versions)
					names = append(names, n)
				}
			}
		}
		for _, n := range names {
			r, err := c.Resolve(ctx, n)
			if err != nil {
				return List{}, err
			}
			e.canonical = e.Input
			if !e.Category {
				e.canonical = c.canonicalName(r)
			}
			e.Resources = append(e.Resources, r)
			if gr := r.GVR().GroupResource(); !seen[gr] {
				seen[gr] = true
				l.Resources = append(l.Resources, r)
			}
		}
		l.Entries = append(l.Entries, e)
	}
	return l, nil
}

// expandCategory returns the group-resources of category as kubectl's discovery category expander finds
// them, or false when no resource is in it. An empty name is no category.
func (c *Catalog) expandCategory(ctx context.Context, category string) ([]schema.GroupResource, bool) {
	if category == "" {
		return nil, false
	}
	cl, err := c.clientsOnce()
	if err != nil {
		return nil, false
	}
	c.loadMu.Lock()
	defer c.loadMu.Unlock()
	grs, ok := restmapper.NewDiscoveryCategoryExpanderWithContext(cl.disc).ExpandWithContext(ctx, category)
	return grs, ok && len(grs) > 0
}

// canonicalName is r's FullName, or "resource.version.group" when r is at a version other than the
// catalog's (the preferred one).
func (c *Catalog) canonicalName(r Resource) string {
	if listed, ok := c.lookup(r.Group, r.Name); ok && r.Group != "" && listed.Version != r.Version {
		return r.Name + "." + r.Version + "." + r.Group
	}
	return r.FullName()
}
