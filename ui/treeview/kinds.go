package treeview

import (
	"kscope/discovery"
	"kscope/tree"
)

// treeKinds are the kinds a tree of an object lists: every resource the catalog says can be listed and
// watched, each once, by resource. Events of events.k8s.io are the core events again (the same objects), so
// they are listed once, as core events, when both are served. unwatched names the resources that can be
// listed but not watched (metrics.k8s.io's), which a live tree cannot follow: the view names them.
func treeKinds(resources []discovery.Resource) (kinds []tree.Kind, byKind map[tree.Kind]discovery.Resource, unwatched []string) {
	coreEvents := false
	for _, r := range resources {
		if r.Group == "" && r.Name == "events" && r.Has("list") && r.Has("watch") {
			coreEvents = true
		}
	}
	byKind = map[tree.Kind]discovery.Resource{}
	for _, r := range resources {
		switch {
		case !r.Has("list"), coreEvents && r.Group == "events.k8s.io" && r.Name == "events":
			continue
		case !r.Has("watch"):
			unwatched = append(unwatched, r.FullName())
			continue
		}
		k := tree.Kind{GVR: r.GVR(), Kind: r.Kind, Namespaced: r.Namespaced}
		if _, dup := byKind[k]; dup {
			continue
		}
		kinds = append(kinds, k)
		byKind[k] = r
	}
	return kinds, byKind, unwatched
}
