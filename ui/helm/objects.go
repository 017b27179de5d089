package helm

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"kscope/cluster"
	"kscope/columns"
	"kscope/discovery"
	"kscope/helm"
	"kscope/ui"
	"kscope/ui/screenlife"
	"kscope/union"
	"kscope/watch"
)

// objectColumns are the columns of a release's objects, computed from each object whatever its kind: NAME,
// HEALTH (kstatus), AGE.
func objectColumns() ([]watch.ObjectColumn, error) {
	v, err := columns.NewView([]string{"NAME", "AGE"}, "")
	if err != nil {
		return nil, err
	}
	cols, _, err := v.ObjectColumns()
	if err != nil {
		return nil, err
	}
	return []watch.ObjectColumn{cols[0], watch.HealthColumn(), cols[1]}, nil
}

// openObjects opens the live table of the objects the manifest of latest names (read off the UI goroutine):
// their kinds listed and watched in the release's namespace (a cluster-scoped kind at the cluster), only
// the manifest's objects kept, each with its HEALTH; the object keys act on each row's own kind (t: its tree).
// Objects of kinds the server does not serve are named on the prompt line. UI goroutine.
func openObjects(s ui.Session, life *screenlife.Life, c cluster.Interface, latest helm.Revision) {
	key := latest.Key()
	life.Go(func(ctx context.Context) {
		rctx, cancel := context.WithTimeout(ctx, ui.RequestTimeout)
		rel, err := helm.Decode(rctx, c, latest)
		cancel()
		var objs []helm.Object
		if err == nil {
			objs, err = helm.ManifestObjects(rel.Manifest, latest.Namespace)
		}
		life.Update(func() {
			if err != nil {
				s.Errorf("objects of release %s: %s", key, err.Error())
				return
			}
			showObjects(s, c, latest, objs)
		})
	})
}

// showObjects opens the table of objs, the objects of latest's manifest. UI goroutine.
func showObjects(s ui.Session, c cluster.Interface, latest helm.Revision, objs []helm.Object) {
	key := latest.Key()
	named, kinds, unserved := resolveObjects(s.ResourceForKind, objs)
	if len(named) == 0 {
		s.Errorf("release %s revision %d names no object kscope can list%s", key, latest.Number, unservedWords(unserved))
		return
	}
	cols, err := objectColumns()
	if err != nil {
		s.Errorf("objects of release %s: %s", key, err.Error())
		return
	}
	res := discovery.Resource{Name: kindNames(kinds), Verbs: []string{"list", "watch"}, Namespaced: true}
	src, err := union.NewObjectKinds(s.Go, c, res, kinds, latest.Namespace, cols)
	if err != nil {
		s.Errorf("objects of release %s: %s", key, err.Error())
		return
	}
	s.OpenTable(res, union.NewNamed(src, named), "objects("+key+")")
	if len(unserved) > 0 {
		s.Errorf("release %s: %d objects of kinds not served, not shown:%s", key, len(unserved), unservedWords(unserved))
	}
}

// resolveObjects finds each object's resource (resourceFor: the catalog's, as for an ownerReference): the
// objects to show, their kinds once each in the manifest's order, and those of kinds not served.
func resolveObjects(resourceFor func(apiVersion, kind string) (discovery.Resource, error), objs []helm.Object) (
	named []union.NamedObject, kinds []discovery.Resource, unserved []helm.Object) {
	for _, o := range objs {
		r, err := resourceFor(o.APIVersion, o.Kind)
		if err != nil || !slices.Contains(r.Verbs, "list") || !slices.Contains(r.Verbs, "watch") {
			unserved = append(unserved, o)
			continue
		}
		ns := o.Namespace
		if !r.Namespaced {
			ns = ""
		}
		named = append(named, union.NamedObject{Res: r, Namespace: ns, Name: o.Name})
		if !slices.ContainsFunc(kinds, func(k discovery.Resource) bool { return k.GVR() == r.GVR() }) {
			kinds = append(kinds, r)
		}
	}
	return named, kinds, unserved
}

// kindNames names kinds as a table of several kinds is named: their plurals, comma-separated.
func kindNames(kinds []discovery.Resource) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name
		if k.Group != "" {
			names[i] += "." + k.Group
		}
	}
	return strings.Join(names, ",")
}

// unservedWords names objects of kinds not served (" Widget/a, Gadget/b"), at most five.
func unservedWords(objs []helm.Object) string {
	var out []string
	for i, o := range objs {
		if i == 5 {
			out = append(out, fmt.Sprintf("and %d more", len(objs)-5))
			break
		}
		out = append(out, o.Kind+"/"+o.Name)
	}
	if len(out) == 0 {
		return ""
	}
	return " " + strings.Join(out, ", ")
}
