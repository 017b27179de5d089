package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/spawn"
	"kscope/ui/picker"
	"kscope/union"
	"kscope/watch"
)

// contextWords is ContextWords over the kubeconfig's contexts.
func (a *App) contextWords(fields []string) (contexts, rest []string, found bool, err error) {
	return ContextWords(fields, a.cluster.Info().Contexts)
}

// ContextWords splits a command's words into the contexts its @-words name (`@prod,@stg`, `@*` for every one
// of all, the kubeconfig's contexts) and the other words; found tells whether it had any. An @-word naming
// no context of all is an error. Pure.
func ContextWords(fields, all []string) (contexts, rest []string, found bool, err error) {
	for _, f := range fields {
		if !strings.HasPrefix(f, "@") {
			rest = append(rest, f)
			continue
		}
		found = true
		for _, name := range strings.Split(f, ",") {
			name = strings.TrimPrefix(strings.TrimSpace(name), "@")
			switch {
			case name == "*":
				for _, c := range all {
					if !slices.Contains(contexts, c) {
						contexts = append(contexts, c)
					}
				}
			case name == "":
				return nil, nil, true, fmt.Errorf("%q: a context name after each @", f)
			case !slices.Contains(all, name):
				return nil, nil, true, fmt.Errorf("no context %q in the kubeconfig (contexts: %s)", name,
					strings.Join(all, ", "))
			case !slices.Contains(contexts, name):
				contexts = append(contexts, name)
			}
		}
	}
	if found && len(contexts) == 0 {
		return nil, nil, true, fmt.Errorf("no contexts in the kubeconfig")
	}
	return contexts, rest, found, nil
}

// commandInClusters runs a command line with @-words (contextWords): RESOURCE[,…] [NS[,…]] over contexts,
// or says why it cannot (err: the @-words could not be read).
func (a *App) commandInClusters(text string, contexts, rest []string, err error) {
	switch {
	case err != nil:
		a.Errorf("%s", err.Error())
	case len(rest) == 0 || len(rest) > 2 || hasOutputFlag(rest) || strings.HasPrefix(rest[len(rest)-1], "-"):
		a.Errorf("%q: try :RESOURCE[,RESOURCE…] @CONTEXT[,@CONTEXT…] [NS[,NS…]] (@* for every context)", text)
	case len(rest) == 2:
		a.openClusters(rest[0], rest[1], contexts)
	default:
		a.openClusters(rest[0], "", contexts)
	}
}

// openClusters opens input (one resource, a list, a category) in the clusters of contexts as one table, in
// the namespaces nsText lists ("": the current one). The table's resource is read from this cluster's
// catalog when it serves input, else stands for input (a kind only other clusters serve).
func (a *App) openClusters(input, nsText string, contexts []string) {
	input = a.expandListAliases(input)
	var namespaces []string
	if nsText != "" {
		var err error
		if namespaces, err = union.ParseNamespaces(nsText); err != nil {
			a.Errorf("%s", err.Error())
			return
		}
	}
	namespace := a.namespace
	if len(namespaces) == 1 {
		namespace, namespaces = namespaces[0], nil
	}
	home, start := a.cluster, a.sup.Func()
	part := func(ctx context.Context, c cluster.Interface, ns string) (discovery.Resource, cluster.RowSource, error) {
		return clusterPart(ctx, start, c, input, ns, namespaces)
	}
	title := input + " @" + strings.Join(contexts, ",@")
	a.Go(func() {
		res := discovery.Resource{Name: input, Namespaced: true, Verbs: []string{"list", "watch"}}
		if l, err := home.Catalog().ResolveList(a.ctx, input); err == nil {
			res = l.Resources[0]
			if l.Union() {
				res = unionResource(l)
			}
		}
		a.tv.QueueUpdateDraw(func() {
			if !res.Namespaced && nsText != "" {
				a.Errorf("%s is cluster-scoped: it has no namespaces", res.FullName())
				return
			}
			ns := namespace
			if !res.Namespaced || len(namespaces) > 1 {
				ns = ""
			}
			src := union.NewClusters(start, res, contexts, a.connectMember(home), part, ns)
			a.popTo(1)
			a.Push(a.newTable(res, src, title))
		})
	})
}

// clusterPart builds the rows of input in cluster c as a table of that cluster alone would show them: one
// resource in namespace ("" = all) or in namespaces (two or more), or several kinds in one table.
func clusterPart(ctx context.Context, start spawn.Func, c cluster.Interface, input, namespace string, namespaces []string) (discovery.Resource, cluster.RowSource, error) {
	l, err := c.Catalog().ResolveList(ctx, input)
	if err != nil {
		return discovery.Resource{}, nil, err
	}
	for _, k := range l.Resources {
		if reason := picker.Unlistable(k); reason != "" {
			return discovery.Resource{}, nil, fmt.Errorf("%s: %s", k.FullName(), reason)
		}
	}
	if l.Union() {
		res := unionResource(l)
		src, err := union.NewKinds(start, c, res, l.Resources, namespace, namespaces)
		switch {
		case err != nil:
			return res, nil, err
		case len(namespaces) > 1:
			return res, union.KindsInNamespaces{Kinds: src}, nil
		}
		return res, src, nil
	}
	res := l.Resources[0]
	spec := watch.Spec{GVR: res.GVR(), Namespaced: res.Namespaced}
	if res.Namespaced && len(namespaces) > 1 {
		src, err := union.NewNamespaces(start, c, spec, namespaces)
		if err != nil {
			return res, nil, err
		}
		return res, src, nil
	}
	if res.Namespaced {
		spec.Namespace = namespace
	}
	src, err := c.NewSource(spec)
	return res, src, err
}
