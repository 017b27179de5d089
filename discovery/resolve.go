package discovery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// onDemandRefreshInterval bounds how often an unknown name makes Resolve re-read discovery from the server.
const onDemandRefreshInterval = 10 * time.Second

// AmbiguousError reports input that the RESTMapper matches to several resources without a preferred one.
type AmbiguousError struct {
	Input      string
	Candidates []Resource
}

// Error returns a one-line message naming the candidates by their unambiguous names.
func (e *AmbiguousError) Error() string {
	names := make([]string, 0, len(e.Candidates))
	for _, r := range e.Candidates {
		names = append(names, r.FullName())
	}
	return fmt.Sprintf("resource %q is ambiguous (could be %s)", e.Input, strings.Join(names, ", "))
}

// NotFoundError reports input that names no resource the server serves, with up to three close names.
type NotFoundError struct {
	Input       string
	Suggestions []string
	// Unavailable lists the group-versions of the group that Input names which discovery could not read:
	// the resource may be served there.
	Unavailable []Unavailable
}

// Error returns e.g. `unknown resource "podz" (did you mean pods, podtemplates?)`, or for a name in a group
// that discovery could not read `unknown resource "things.broken.example.com": API
// broken.example.com/v1alpha1 is unavailable: <reason>`.
func (e *NotFoundError) Error() string {
	msg := fmt.Sprintf("unknown resource %q", e.Input)
	if len(e.Suggestions) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(e.Suggestions, ", "))
	}
	for _, u := range e.Unavailable {
		msg += fmt.Sprintf(": API %s is unavailable: %s", u.GroupVersion, u.Reason)
	}
	return msg
}

// unavailableFor returns the unavailable group-versions of the group that input names as its suffix
// ("things.g", "things.v1.g" or "g" itself name group g).
func unavailableFor(input string, unavailable []Unavailable) []Unavailable {
	var out []Unavailable
	for _, u := range unavailable {
		gv, err := schema.ParseGroupVersion(u.GroupVersion)
		if err == nil && gv.Group != "" && (input == gv.Group || strings.HasSuffix(input, "."+gv.Group)) {
			out = append(out, u)
		}
	}
	return out
}

// Resolve maps user input to a resource the way kubectl get does, through the RESTMapper and short-name
// expander of the catalog's getter: plural ("deployments"), singular ("deployment"), short name ("deploy"),
// Kind ("Deployment"), "resource.group" ("deployments.apps") and "resource.version.group"
// ("deployments.v1.apps"). Where several groups serve a name the mapper's preference decides, as in kubectl
// ("events" is core events, a short name goes to the higher-priority group). Unlike kubectl, input is also
// tried lower-cased ("PO" finds pods).
//
// The returned Resource carries the version the mapper chose (the requested one for "resource.version.group").
// Errors: *AmbiguousError when the mapper cannot choose, *NotFoundError for unknown input (after at most one
// re-read of discovery per 10 s, so CRDs created since the last read are found), or a discovery error.
// Resolve loads the catalog if needed; it may read from the server. Successful resolutions are remembered
// until the next discovery read, so repeated input costs a map lookup. The reads end when ctx does (and after
// 30 s at most).
func (c *Catalog) Resolve(ctx context.Context, input string) (Resource, error) {
	input = strings.TrimSpace(input)
	if input == "" {
		return Resource{}, &NotFoundError{Input: input}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := c.Load(ctx); err != nil {
		return Resource{}, err
	}
	r, gen, ok := c.cachedResolution(input)
	if ok {
		return r, nil
	}
	mapping, err := c.mapInput(input)
	if meta.IsNoMatchError(err) {
		if _, at := c.snapshot(); time.Since(at) > onDemandRefreshInterval {
			if rerr := c.Refresh(ctx); rerr == nil {
				mapping, err = c.mapInput(input)
			}
		}
	}
	var ambiguous *AmbiguousError
	switch {
	case errors.As(err, &ambiguous):
		return Resource{}, err
	case meta.IsNoMatchError(err):
		resources, _ := c.snapshot()
		return Resource{}, &NotFoundError{Input: input, Suggestions: suggest(strings.ToLower(input), resources),
			Unavailable: unavailableFor(input, c.Unavailable())}
	case err != nil:
		return Resource{}, fmt.Errorf("resolve %q: %w", input, err)
	}
	r, known := c.resourceFor(mapping)
	if !known {
		// The mapper re-read discovery since the catalog did (it does when a name is not in a cached read: a CRD
		// created since): the catalog reads it again, or the resource would come without its verbs, and no
		// view could open it.
		if rerr := c.Refresh(ctx); rerr == nil {
			r, known = c.resourceFor(mapping)
		}
	}
	if !known {
		c.wake() // (Run's refresher tries again)
		return r, nil
	}
	c.remember(input, r, gen)
	return r, nil
}

// cachedResolution returns what input resolved to since the last discovery read, and that read's number.
func (c *Catalog) cachedResolution(input string) (Resource, uint64, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r, ok := c.resolved[input]
	return r, c.generation, ok
}

// remember keeps a resolution made during read number gen until the next read (which clears them all).
func (c *Catalog) remember(input string, r Resource, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.generation {
		return
	}
	if c.resolved == nil {
		c.resolved = map[string]Resource{}
	}
	c.resolved[input] = r
}

// mapInput tries input as given, then lower-cased. It holds loadMu: the mapper reads through the discovery
// client.
func (c *Catalog) mapInput(input string) (*meta.RESTMapping, error) {
	c.loadMu.Lock()
	defer c.loadMu.Unlock()
	mapping, err := c.mappingFor(input)
	if lower := strings.ToLower(input); meta.IsNoMatchError(err) && lower != input {
		return c.mappingFor(lower)
	}
	return mapping, err
}

// mappingFor follows kubectl's order: input as a resource (fully specified "res.version.group" first, then
// "res.group"), then as a Kind ("Kind.version.group", "Kind.group", "Kind"). Mapper ambiguity is reported
// when nothing else matches.
func (c *Catalog) mappingFor(input string) (*meta.RESTMapping, error) {
	cl, err := c.clientsOnce()
	if err != nil {
		return nil, err
	}
	mapper := cl.mapper
	var ambiguity error
	note := func(err error) {
		if ambiguity == nil && meta.IsAmbiguousError(err) {
			ambiguity = err
		}
	}

	fullGVR, gr := schema.ParseResourceArg(input)
	var gvk schema.GroupVersionKind
	if fullGVR != nil {
		gvk, err = mapper.KindFor(*fullGVR)
		note(err)
	}
	if gvk.Empty() {
		gvk, err = mapper.KindFor(gr.WithVersion(""))
		note(err)
	}
	if !gvk.Empty() {
		return mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	}

	fullGVK, gk := schema.ParseKindArg(input)
	if fullGVK != nil {
		mapping, err := mapper.RESTMapping(fullGVK.GroupKind(), fullGVK.Version)
		if err == nil {
			return mapping, nil
		}
		note(err)
	}
	mapping, err := mapper.RESTMapping(gk)
	if err != nil {
		note(err)
		if ambiguity != nil && (meta.IsNoMatchError(err) || meta.IsAmbiguousError(err)) {
			return nil, c.ambiguousError(input, ambiguity)
		}
	}
	return mapping, err
}

// ambiguousError turns a mapper ambiguity into an AmbiguousError with catalog entries as candidates.
func (c *Catalog) ambiguousError(input string, err error) error {
	var gvrs []schema.GroupVersionResource
	var gvks []schema.GroupVersionKind
	var res *meta.AmbiguousResourceError
	var kind *meta.AmbiguousKindError
	switch {
	case errors.As(err, &res):
		gvrs, gvks = res.MatchingResources, res.MatchingKinds
	case errors.As(err, &kind):
		gvrs, gvks = kind.MatchingResources, kind.MatchingKinds
	}
	seen := map[schema.GroupResource]bool{}
	var candidates []Resource
	add := func(r Resource, ok bool) {
		if ok && !seen[r.GVR().GroupResource()] {
			seen[r.GVR().GroupResource()] = true
			candidates = append(candidates, r)
		}
	}
	for _, gvr := range gvrs {
		add(c.lookup(gvr.Group, gvr.Resource))
	}
	for _, gvk := range gvks {
		add(c.lookupKind(gvk.GroupKind()))
	}
	return &AmbiguousError{Input: input, Candidates: candidates}
}

// resourceFor returns the catalog entry for mapping, at the mapping's version, and true. A mapping the
// catalog lacks means the catalog is stale: the entry is built from the mapping (without verbs, short names
// or categories, which only discovery tells), and known is false.
func (c *Catalog) resourceFor(m *meta.RESTMapping) (r Resource, known bool) {
	if r, ok := c.lookup(m.Resource.Group, m.Resource.Resource); ok {
		r.Version = m.Resource.Version
		return r, true
	}
	return Resource{
		Group:      m.Resource.Group,
		Version:    m.Resource.Version,
		Name:       m.Resource.Resource,
		Kind:       m.GroupVersionKind.Kind,
		Namespaced: m.Scope != nil && m.Scope.Name() == meta.RESTScopeNameNamespace,
	}, false
}

// lookupKind returns the catalog entry with the given group and Kind.
func (c *Catalog) lookupKind(gk schema.GroupKind) (Resource, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, r := range c.resources {
		if r.Group == gk.Group && r.Kind == gk.Kind {
			return r, true
		}
	}
	return Resource{}, false
}
