package ui

import (
	"slices"
	"strings"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/picker"
	"kscope/ui/prompt"
	"kscope/union"
	"kscope/watch"
)

// A table of several kinds (`:deploy,sts,ds`, `:all`, `kscope all`) is a live table (livetable.Table) over a
// kinds source. Its resource is unionResource's: it names the list (so that the history can open it again) and is served by no
// API; each row's own resource comes from the source (rowKind), and the object keys act on it.

// unionResource is the resource of a table of l's kinds: named by l's canonical form, namespaced when a kind
// is, listable and watchable, with neither version nor kind (which no served resource lacks).
func unionResource(l discovery.List) discovery.Resource {
	r := discovery.Resource{Name: l.Canonical(), Verbs: []string{"list", "watch"}}
	for _, k := range l.Resources {
		r.Namespaced = r.Namespaced || k.Namespaced
	}
	return r
}

// isUnion tells whether res is a unionResource.
func isUnion(res discovery.Resource) bool {
	return res.Version == "" && res.Kind == "" && res.Name != ""
}

// unionTitle names l's kinds for the crumbs and the title: a category as named, a resource by its plural.
func unionTitle(l discovery.List) string {
	names := make([]string, 0, len(l.Entries))
	for _, e := range l.Entries {
		if e.Category || len(e.Resources) != 1 {
			names = append(names, e.Input)
		} else {
			names = append(names, e.Resources[0].Name)
		}
	}
	return strings.Join(names, ",")
}

// openNamed opens what input names (one resource, a comma-separated list, a category), resolved off the
// UI goroutine, in the namespaces nsText lists ("": the current one). One resource opens as it always has;
// several in one table.
func (a *App) openNamed(catalog cluster.Catalog, input, nsText string) {
	input = a.expandListAliases(input)
	a.Go(func() {
		l, err := catalog.ResolveList(a.ctx, input)
		a.tv.QueueUpdateDraw(func() {
			switch {
			case err != nil:
				a.Errorf("%s", err.Error())
			case !l.Union() && nsText != "":
				a.openInNamespaces(l.Resources[0], nsText)
			case !l.Union():
				a.openTop(l.Resources[0])
			default:
				a.openKinds(l, nsText)
			}
		})
	})
}

// expandListAliases replaces each name of a comma-separated list that is an alias of one resource name.
func (a *App) expandListAliases(input string) string {
	if !strings.Contains(input, ",") {
		return input
	}
	names := strings.Split(input, ",")
	for i, n := range names {
		if target, ok := a.opts.Aliases[strings.TrimSpace(n)]; ok && !strings.ContainsAny(target, " ,") {
			names[i] = target
		}
	}
	return strings.Join(names, ",")
}

// openKinds opens one table of l's kinds above the picker, in the namespaces nsText lists ("": the current
// one), and records it in the history.
func (a *App) openKinds(l discovery.List, nsText string) {
	res := unionResource(l)
	var unlistable []string
	for _, k := range l.Resources {
		if reason := picker.Unlistable(k); reason != "" {
			unlistable = append(unlistable, k.FullName()+": "+reason)
		}
	}
	if len(unlistable) > 0 {
		a.Errorf("cannot be listed and watched: %s", strings.Join(unlistable, "; "))
		return
	}
	namespace := a.namespace
	var namespaces []string
	if nsText != "" {
		var err error
		if namespaces, err = union.ParseNamespaces(nsText); err != nil {
			a.Errorf("%s", err.Error())
			return
		}
		if !res.Namespaced {
			a.Errorf("%s: cluster-scoped, no namespaces", unionTitle(l))
			return
		}
		if len(namespaces) == 1 {
			a.setNamespace(namespaces[0])
			namespace = namespaces[0]
		}
	}
	src, err := union.NewKinds(a.sup.Func(), a.cluster, res, l.Resources, namespace, namespaces)
	if err != nil {
		a.Errorf("open %s: %s", unionTitle(l), err)
		return
	}
	var rows cluster.RowSource = src
	if len(namespaces) > 1 {
		rows = union.KindsInNamespaces{Kinds: src}
	}
	a.popTo(1)
	a.Push(a.newTable(res, rows, unionTitle(l)))
	a.history.record(res)
}

// completeCommand answers Tab in the command bar: the last name of a comma-separated list (`deploy,st`) is
// completed from the resource names and the catalog's categories, anything else as commandLine completes it
// (with the categories among the names).
func (a *App) completeCommand(line string) (string, []string) {
	cl := a.commandLine()
	words := cl.Words
	cl.Words = func() []string { return append(words(), a.categoryNames()...) }
	i := strings.LastIndex(line, ",")
	if i < 0 || strings.Contains(line, " ") {
		return cl.Complete(line)
	}
	word, matches := prompt.CompleteWord(line[i+1:], cl.Words())
	return line[:i+1] + word, matches
}

// categoryNames are the categories of the catalog's resources (`all`), each once.
func (a *App) categoryNames() []string {
	var names []string
	for _, r := range a.cluster.Catalog().Resources() {
		for _, c := range r.Categories {
			if !slices.Contains(names, c) {
				names = append(names, c)
			}
		}
	}
	return names
}

// openInNamespaces opens res in the namespaces text lists: one namespace switches to it (as :ns does), two
// or more show one table of them all.
func (a *App) openInNamespaces(res discovery.Resource, text string) {
	namespaces, err := union.ParseNamespaces(text)
	if err != nil {
		a.Errorf("%s", err.Error())
		return
	}
	if !res.Namespaced {
		a.Errorf("%s is cluster-scoped: it has no namespaces", res.FullName())
		return
	}
	if len(namespaces) == 1 {
		a.setNamespace(namespaces[0])
		a.openTop(res)
		return
	}
	src, err := union.NewNamespaces(a.sup.Func(), a.cluster, watch.Spec{GVR: res.GVR(), Namespaced: true}, namespaces)
	if err != nil {
		a.Errorf("open %s: %s", res.FullName(), err)
		return
	}
	a.popTo(1)
	a.Push(a.newTable(res, src, res.Name))
}
