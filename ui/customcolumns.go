package ui

import (
	"strings"

	"kscope/cluster"
	"kscope/columns"
	"kscope/discovery"
	"kscope/union"
	"kscope/watch"
)

// outputFlag finds kubectl's output flag among a command line's words (-o VALUE, -oVALUE, -o=VALUE, --output
// VALUE, --output=VALUE) and returns its value and the other words. found is false when there is none; a flag
// without a value is found with value "".
func outputFlag(fields []string) (value string, rest []string, found bool) {
	without := func(i, n int) []string {
		return append(append([]string(nil), fields[:i]...), fields[min(i+n, len(fields)):]...)
	}
	for i, f := range fields {
		switch {
		case f == "-o" || f == "--output":
			if i+1 < len(fields) {
				value = fields[i+1]
			}
			return value, without(i, 2), true
		case strings.HasPrefix(f, "--output="):
			return strings.TrimPrefix(f, "--output="), without(i, 1), true
		case strings.HasPrefix(f, "-o"):
			return strings.TrimPrefix(strings.TrimPrefix(f, "-o"), "="), without(i, 1), true
		}
	}
	return "", fields, false
}

// commandWithOutput runs `:RESOURCE [NS[,NS…]] -o custom-columns=SPEC` (or custom-columns-file=FILE): the
// resource's table with kubectl's custom columns, computed from the objects. A bad spec is one line on the
// prompt, and the table shown stays as it is.
func (a *App) commandWithOutput(fields []string) {
	value, rest, _ := outputFlag(fields)
	cols, err := columns.FromOutput(value)
	if err != nil {
		a.Errorf("%s", err.Error())
		return
	}
	switch len(rest) {
	case 1:
		a.resolveThen(a.cluster.Catalog(), rest[0], func(res discovery.Resource) { a.openColumns(res, cols) })
	case 2:
		a.resolveThen(a.cluster.Catalog(), rest[0], func(res discovery.Resource) {
			a.openColumnsIn(res, cols, rest[1])
		})
	default:
		a.Errorf("usage: :RESOURCE [NS[,NS…]] -o custom-columns=HEADER:JSONPATH,… (or custom-columns-file=FILE)")
	}
}

// openColumns opens res in the current namespace as a table of cols, above the picker.
func (a *App) openColumns(res discovery.Resource, cols []watch.ObjectColumn) {
	if !res.Has("list") || !res.Has("watch") {
		a.Errorf("%s cannot be listed and watched (verbs: %s)", res.FullName(), strings.Join(res.Verbs, ","))
		return
	}
	spec := watch.Spec{GVR: res.GVR(), Namespaced: res.Namespaced, Columns: cols}
	if res.Namespaced {
		spec.Namespace = a.namespace
	}
	a.popTo(1)
	a.openSpec(res, spec, res.Name, "")
}

// openColumnsIn opens res as a table of cols in the namespaces nsText lists (one: it becomes the current one).
func (a *App) openColumnsIn(res discovery.Resource, cols []watch.ObjectColumn, nsText string) {
	namespaces, err := union.ParseNamespaces(nsText)
	switch {
	case err != nil:
		a.Errorf("%s", err.Error())
	case !res.Namespaced:
		a.Errorf("%s is cluster-scoped: it has no namespaces", res.FullName())
	case len(namespaces) == 1:
		a.setNamespace(namespaces[0])
		a.openColumns(res, cols)
	default:
		src, err := union.NewNamespaces(a.sup.Func(), a.cluster, watch.Spec{GVR: res.GVR(), Namespaced: true, Columns: cols}, namespaces)
		if err != nil {
			a.Errorf("open %s: %s", res.FullName(), err)
			return
		}
		a.popTo(1)
		a.Push(a.newTable(res, src, res.Name))
	}
}

// openStart opens the resource kscope was started with: with the columns of -o custom-columns when given.
func (a *App) openStart(catalog cluster.Catalog) {
	if strings.Contains(a.opts.Resource, " @") || a.startsRegistered() { // RESOURCE @CONTEXT…: a table of several clusters; `kscope helm`
		a.command(a.opts.Resource)
		return
	}
	if len(a.opts.Columns) == 0 {
		a.openNamed(catalog, a.opts.Resource, "")
		return
	}
	a.resolveThen(catalog, a.opts.Resource, func(res discovery.Resource) { a.openColumns(res, a.opts.Columns) })
}

// startsRegistered tells whether kscope starts on a registered screen's command (`kscope helm`), not a resource.
func (a *App) startsRegistered() bool {
	f := strings.Fields(a.opts.Resource)
	return len(f) > 0 && len(a.opts.Columns) == 0 && RegisteredCommand(a.opts.Registered, f[0])
}

// hasOutputFlag tells whether a command line's words carry -o/--output.
func hasOutputFlag(fields []string) bool {
	_, _, found := outputFlag(fields)
	return found
}
