package changes

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"kscope/changes"
	"kscope/discovery"
	"kscope/tree"
)

// query is what `:changes` was asked for: the namespaces ([""]: all) and the changes kept (manager, kind,
// op; "" matches any). A plain value.
type query struct {
	namespaces        []string
	manager, kind, op string
}

// parseArgs reads the words after `:changes`: at most one list of namespaces ("shop,web"; "all" or "-A":
// every namespace), and key=value filters manager=, kind= (a kind, "ConfigMap", or resource, "configmaps",
// "deployments.apps") and op= (created, updated, deleted). current is the view's namespace ("" = all), the
// feed's when no namespace is named.
func parseArgs(args []string, current string) (query, error) {
	q := query{namespaces: []string{current}}
	named := false
	for _, a := range args {
		key, value, isFilter := strings.Cut(a, "=")
		switch {
		case !isFilter && named:
			return query{}, fmt.Errorf("changes: one list of namespaces only (%q): NS[,NS…]", a)
		case !isFilter:
			named = true
			ns, err := namespaces(a)
			if err != nil {
				return query{}, err
			}
			q.namespaces = ns
		case value == "":
			return query{}, fmt.Errorf("changes: %s= needs a value", key)
		case key == "manager":
			q.manager = value
		case key == "kind":
			q.kind = value
		case key == "op" && (value == changes.Created.String() || value == changes.Updated.String() || value == changes.Deleted.String()):
			q.op = value
		case key == "op":
			return query{}, fmt.Errorf("changes: op=%q: created, updated or deleted", value)
		default:
			return query{}, fmt.Errorf("changes: unknown filter %q: manager=, kind= or op=", key)
		}
	}
	return q, nil
}

// namespaces reads a list of namespaces ("all", "-A": every one).
func namespaces(list string) ([]string, error) {
	if list == "all" || list == "-A" {
		return []string{""}, nil
	}
	var out []string
	for _, ns := range strings.Split(list, ",") {
		if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
			return nil, fmt.Errorf("changes: invalid namespace %q: %s", ns, errs[0])
		}
		out = append(out, ns)
	}
	return out, nil
}

// label names q's namespaces in the title: "shop", "shop,web", "all".
func (q query) label() string {
	if len(q.namespaces) == 1 && q.namespaces[0] == "" {
		return "all"
	}
	return strings.Join(q.namespaces, ",")
}

// matches tells whether c is one of the changes q keeps.
func (q query) matches(c changes.Change) bool {
	switch {
	case q.manager != "" && !strings.EqualFold(q.manager, c.Manager):
		return false
	case q.op != "" && q.op != c.Op.String():
		return false
	case q.kind != "":
		return names(q.kind, c.Kind)
	}
	return true
}

// names tells whether kind= value name names k: its kind ("ConfigMap"), resource ("configmaps") or resource
// and group ("deployments.apps"), in any case.
func names(name string, k tree.Kind) bool {
	return strings.EqualFold(name, k.Kind) || strings.EqualFold(name, k.GVR.Resource) || strings.EqualFold(name, k.Name())
}

// quiet tells whether the feed leaves r out unless kind= names it. Events (core and events.k8s.io) are the
// cluster's own record of what happened, created by the thousand; leases (coordination.k8s.io) are renewed
// every few seconds by every node's heartbeat and every leader election. Either would push every other change
// out of the feed.
func quiet(r discovery.Resource) bool {
	return r.Name == "events" && (r.Group == "" || r.Group == "events.k8s.io") ||
		r.Name == "leases" && r.Group == "coordination.k8s.io"
}

// feedKinds are the kinds the feed watches: every resource the catalog says can be listed and watched, each
// once, but the quiet ones; with kind= (q.kind), only the kinds it names, quiet ones too. A kind= that names
// none of them is an error.
func feedKinds(resources []discovery.Resource, q query) ([]tree.Kind, error) {
	seen := map[tree.Kind]bool{}
	var kinds []tree.Kind
	for _, r := range resources {
		k := tree.Kind{GVR: r.GVR(), Kind: r.Kind, Namespaced: r.Namespaced}
		switch {
		case !r.Has("list") || !r.Has("watch") || seen[k]:
			continue
		case q.kind != "" && !names(q.kind, k), q.kind == "" && quiet(r):
			continue
		}
		seen[k] = true
		kinds = append(kinds, k)
	}
	if q.kind != "" && len(kinds) == 0 {
		return nil, fmt.Errorf("kind=%s: no kind of that name can be listed and watched", q.kind)
	}
	return kinds, nil
}
