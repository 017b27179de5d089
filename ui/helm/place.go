package helm

import (
	"context"
	"fmt"
	"strings"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/helm"
	"kscope/spawn"
	"kscope/ui"
	"kscope/union"
	"kscope/watch"
)

// A releases table shows one namespace's releases or every namespace's (a helm.Source), several namespaces'
// (a union.Namespaces of helm.Sources) or several clusters' (a union.Clusters of either): its rows come from
// there; what a key does to a row is done through the Helm source that lists it, in its cluster (place).

// place is where a row of a releases table lives: its cluster, the Helm source that lists it and its key
// there ("shop/web"); context names the cluster in a table of several ("": the view's). A plain value.
type place struct {
	c       cluster.Interface
	src     *helm.Source
	key     string
	context string
}

// locate finds the place of row, a row of src (a releases table's rows) in cluster c (the view's).
func locate(src cluster.RowSource, c cluster.Interface, row *watch.Row) (place, bool) {
	switch s := src.(type) {
	case *helm.Source:
		return place{c: c, src: s, key: row.Key}, true
	case *union.Namespaces:
		labels, parts := s.PartSources()
		for i, ns := range labels {
			if ns == row.Namespace {
				return locate(parts[i], c, row)
			}
		}
	case *union.Clusters:
		mc, context, ok := s.ClusterOf(row)
		part, key, ok2 := s.PartOf(row)
		if !ok || !ok2 {
			return place{}, false
		}
		own := *row
		own.Key = key
		p, ok := locate(part, mc, &own)
		p.context = context
		return p, ok
	}
	return place{}, false
}

// reading is how many charts src's Helm sources have left to read (helm.Source.Reading).
func reading(src cluster.RowSource) int {
	switch s := src.(type) {
	case *helm.Source:
		return s.Reading()
	case *union.Namespaces:
		_, parts := s.PartSources()
		n := 0
		for _, p := range parts {
			n += reading(p)
		}
		return n
	case *union.Clusters:
		n := 0
		for _, p := range s.Sources() {
			if p != nil {
				n += reading(p)
			}
		}
		return n
	}
	return 0
}

// helmSources makes the Helm source of one namespace in c (a union.SourceMaker), for a table of several.
type helmSources struct {
	start spawn.Func
	c     cluster.Interface
}

// NewSource implements union.SourceMaker: the releases of spec's namespace.
func (m helmSources) NewSource(spec watch.Spec) (cluster.RowSource, error) {
	return helm.NewSource(m.start, m.c, storage(m.c), spec.Namespace)
}

// inCluster builds the releases of c in namespaces (two or more), else in ns ("": all).
func inCluster(start spawn.Func, c cluster.Interface, ns string, namespaces []string) (cluster.RowSource, error) {
	if len(namespaces) > 1 {
		return union.NewNamespaces(start, helmSources{start: start, c: c},
			watch.Spec{GVR: helm.Resource.GVR(), Namespaced: true}, namespaces)
	}
	return helm.NewSource(start, c, storage(c), ns)
}

// storage is what reads c's stored revisions: its reader of Helm's storage when it has one (no client-side
// rate: its readers' number bounds it), else c.
func storage(c cluster.Interface) helm.Getter {
	if h, ok := c.(cluster.HelmStorage); ok {
		return h.HelmStorage()
	}
	return c
}

// releasesSource builds the releases table's rows: in the view's cluster (contexts nil) or over the clusters
// of contexts, in namespaces (two or more), else in ns ("": all).
func releasesSource(s ui.Session, contexts []string, ns string, namespaces []string) (cluster.RowSource, error) {
	if len(contexts) == 0 {
		return inCluster(s.Go, s.Cluster(), ns, namespaces)
	}
	part := func(_ context.Context, c cluster.Interface, namespace string) (discovery.Resource, cluster.RowSource, error) {
		src, err := inCluster(s.Go, c, namespace, namespaces)
		return helm.Resource, src, err
	}
	return union.NewClusters(s.Go, helm.Resource, contexts, s.Connect, part, ns), nil
}

// title names what a releases table shows: its namespaces ("shop", "shop,data", "all"), then its clusters'
// contexts (" @prod,@stg") when it shows several.
func title(ns string, namespaces, contexts []string) string {
	t := where(ns)
	if len(namespaces) > 1 {
		t = strings.Join(namespaces, ",")
	}
	if len(contexts) > 0 {
		t += " @" + strings.Join(contexts, ",@")
	}
	return t
}

// elsewhere is the guard of a write to a release of another cluster than the view's (a table of several):
// refused, saying how to write to it. (The write checks and acts in the view's cluster: kscope never lets a
// row of one cluster be written through another's session.)
func elsewhere(nav ui.Navigator, context string) ui.WriteGuard {
	return ui.WriteGuard{
		Permitted: func(what string, _ func()) {
			nav.Errorf("refusing to %s: it is in context %s, not the view's; open it there (:ctx %s, then :helm)", what, context, context)
		},
		Denied: func() bool { return false },
	}
}

// inView tells whether p is in the view's cluster (what the object keys and the writes act on).
func (p place) inView(nav ui.Navigator) bool { return p.context == "" || p.c == nav.Cluster() }

// describe names p's release for the messages: "shop/web", or "shop/web in context stg".
func (p place) describe() string {
	if p.context == "" {
		return p.key
	}
	return fmt.Sprintf("%s in context %s", p.key, p.context)
}
