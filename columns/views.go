package columns

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/config"
)

// Views are the views.yaml entries made ready, by resource. A Views is immutable once built; safe for
// concurrent use.
type Views struct {
	entries []viewEntry
}

type viewEntry struct {
	resource string         // v1/pods
	ns       *regexp.Regexp // nil: every namespace
	view     View
}

// NewViews builds the entries of views.yaml; the first bad one is the error (naming its key).
func NewViews(settings []config.ViewSetting) (Views, error) {
	var vs Views
	for _, s := range settings {
		e := viewEntry{resource: s.Key}
		if res, nsRX, ok := strings.Cut(s.Key, "@"); ok {
			rx, err := regexp.Compile(nsRX)
			if err != nil {
				return Views{}, fmt.Errorf("view %q: namespace %w", s.Key, err)
			}
			e.resource, e.ns = res, rx
		}
		v, err := NewView(s.Columns, s.SortColumn)
		if err != nil {
			return Views{}, fmt.Errorf("view %q: %w", s.Key, err)
		}
		e.view = v
		vs.entries = append(vs.entries, e)
	}
	return vs, nil
}

// ResourceKey is how views.yaml names gvr: v1/pods, apps/v1/deployments.
func ResourceKey(gvr schema.GroupVersionResource) string {
	if gvr.Group == "" {
		return gvr.Version + "/" + gvr.Resource
	}
	return gvr.Group + "/" + gvr.Version + "/" + gvr.Resource
}

// Lookup returns the view of gvr in namespace ("" for all): an entry for that namespace (KEY@REGEX whose
// regular expression matches it) before the resource's own entry.
func (vs Views) Lookup(gvr schema.GroupVersionResource, namespace string) (View, bool) {
	key := ResourceKey(gvr)
	for _, e := range vs.entries {
		if e.resource == key && e.ns != nil && namespace != "" && e.ns.MatchString(namespace) {
			return e.view, true
		}
	}
	for _, e := range vs.entries {
		if e.resource == key && e.ns == nil {
			return e.view, true
		}
	}
	return View{}, false
}

// Len returns the number of entries.
func (vs Views) Len() int { return len(vs.entries) }
