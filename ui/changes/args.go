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
		k := c.Kind
		return strings.EqualFold(q.kind, k.Kind) || strings.EqualFold(q.kind, k.GVR.Resource) || strings.EqualFold(q.kind, k.Name())
	}
	return true
}

// feedKinds are the kinds the feed watches: every resource the catalog says can be listed and watched, each
// once. Events (core and events.k8s.io) are left out: they are the cluster's own record of what happened,
// created by the thousand, and would push every other change out of the feed.
func feedKinds(resources []discovery.Resource) []tree.Kind {
	seen := map[tree.Kind]bool{}
	var kinds []tree.Kind
	for _, r := range resources {
		if !r.Has("list") || !r.Has("watch") || r.Name == "events" && (r.Group == "" || r.Group == "events.k8s.io") {
			continue
		}
		k := tree.Kind{GVR: r.GVR(), Kind: r.Kind, Namespaced: r.Namespaced}
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	return kinds
}
