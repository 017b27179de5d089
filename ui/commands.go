package ui

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/prompt"
	"kscope/watch"
)

// namespacesResource is core/v1 namespaces, the namespace picker's resource.
func namespacesResource() discovery.Resource {
	return discovery.Resource{Version: "v1", Name: "namespaces", SingularName: "namespace", Kind: "Namespace",
		ShortNames: []string{"ns"}, Verbs: []string{"get", "list", "watch", "delete"}}
}

// eventsResource is core/v1 events, which the events view lists.
func eventsResource() discovery.Resource {
	return discovery.Resource{Version: "v1", Name: "events", SingularName: "event", Kind: "Event",
		ShortNames: []string{"ev"}, Verbs: []string{"get", "list", "watch", "delete"}, Namespaced: true}
}

// catalogEntry returns the catalog's own entry for def's resource (its verbs and names as the server serves
// them), or def when the catalog does not list it.
func (a *App) catalogEntry(def discovery.Resource) discovery.Resource {
	for _, r := range a.cluster.Catalog().Resources() {
		if r.GVR() == def.GVR() {
			return r
		}
	}
	return def
}

func (a *App) openCommandBar() {
	a.namespaces.want() // for `ns ` Tab: the list arrives while the user types
	a.bar.Open(":", "", a.command, a.completeCommand)
}

// commandLine is what the command bar understands: its own commands, then the catalog's resource names.
func (a *App) commandLine() prompt.CommandLine {
	return prompt.CommandLine{Commands: a.barCommands(), Words: a.resourceWords}
}

// barCommands is the one list of the command bar's commands, for running and for completion (anything else
// typed after `:` names a resource): kscope's own, then the registered screens' (ScreenSpec), so that a
// registered command of one of kscope's names never runs (ScreenCollisions says so at start).
func (a *App) barCommands() []prompt.Command {
	return append(a.ownCommands(), a.registeredCommands()...)
}

// CommandNames are the names of kscope's own commands of the command bar (q, help, apply, ns, ctx and their
// aliases), read from the list the bar runs: a registered screen's command may take none of them. Safe from
// any goroutine.
func CommandNames() []string {
	var names []string
	for _, c := range (&App{}).ownCommands() { // built, never run: only the names are read
		names = append(names, c.Names...)
	}
	return names
}

// ownCommands are kscope's own commands of the command bar. It only builds them (nothing of a is read until
// one runs): CommandNames reads their names on an App of no session.
func (a *App) ownCommands() []prompt.Command {
	return []prompt.Command{
		{Names: []string{"q", "quit", "q!"}, Run: func([]string) { a.Stop() }},
		{Names: []string{"help"}, Run: func([]string) { a.showHelp() }},
		{Names: []string{"apply"}, Args: true, Rest: true, Run: a.runApply},
		{Names: []string{"ns", "namespace"}, Args: true, ArgCandidates: func() []string { return a.namespaces.names() },
			Run: func(args []string) {
				if len(args) > 0 {
					a.setNamespace(args[0])
					return
				}
				a.openNamespacePicker()
			}},
		{Names: []string{"ctx", "context", "contexts"}, Args: true, ArgCandidates: func() []string { return a.cluster.Info().Contexts },
			Run: func(args []string) {
				if len(args) == 0 && a.openContexts() {
					return
				}
				if len(args) == 0 {
					a.Errorf("usage: :ctx NAME (contexts: %s)", strings.Join(a.cluster.Info().Contexts, ", "))
					return
				}
				a.switchContext(args[0])
			}},
	}
}

// resourceWords are the names a resource may be opened by after `:`, for Tab.
func (a *App) resourceWords() []string {
	words := a.opts.Aliases.Names()
	for _, r := range a.cluster.Catalog().Resources() {
		words = append(words, r.Name, r.FullName())
		words = append(words, r.ShortNames...)
		if r.SingularName != "" {
			words = append(words, r.SingularName)
		}
	}
	return words
}

// command runs what the user typed after `:`.
func (a *App) command(text string) {
	text = a.expandAlias(text)
	fields, ran := a.commandLine().Run(text)
	if ran || len(fields) == 0 {
		return
	}
	if contexts, rest, found, err := a.contextWords(fields); found {
		a.commandInClusters(text, contexts, rest, err)
		return
	}
	switch {
	case hasOutputFlag(fields):
		a.commandWithOutput(fields)
	case len(fields) == 2 && !strings.HasPrefix(fields[1], "-"):
		a.openNamed(a.cluster.Catalog(), fields[0], fields[1])
	case len(fields) > 1:
		a.Errorf("unknown command %q: try :RESOURCE [NS[,NS…]], :ns [NAME], :ctx NAME, :q (? lists every command)", text)
	default:
		a.openNamed(a.cluster.Catalog(), fields[0], "")
	}
}

// resolveThen resolves input off the UI goroutine, then runs open on it on the UI goroutine, or says why
// it cannot be resolved.
func (a *App) resolveThen(catalog cluster.Catalog, input string, open func(discovery.Resource)) {
	a.Go(func() {
		res, err := catalog.Resolve(a.ctx, input)
		a.tv.QueueUpdateDraw(func() {
			if err != nil {
				a.Errorf("%s", err.Error())
				return
			}
			open(res)
		})
	})
}

// openResource pushes a live table of res in the current namespace; selectKey, if set, is selected once it
// appears. It tells whether it pushed that table (false: it said why not, or several kinds are resolved again
// off the UI goroutine, their table recorded when it opens).
func (a *App) openResource(res discovery.Resource, selectKey string) bool {
	if isUnion(res) { // several kinds (from the history): resolved again
		a.openNamed(a.cluster.Catalog(), res.Name, "")
		return false
	}
	if !res.Has("list") || !res.Has("watch") {
		a.Errorf("%s cannot be listed and watched (verbs: %s)", res.FullName(), strings.Join(res.Verbs, ","))
		return false
	}
	spec := watch.Spec{GVR: res.GVR(), Namespaced: res.Namespaced}
	if res.Namespaced {
		spec.Namespace = a.namespace
	}
	return a.openViewed(res, spec, selectKey)
}

// openSpec pushes a live table for spec titled title, and tells whether it did (false: it said why not).
func (a *App) openSpec(res discovery.Resource, spec watch.Spec, title, selectKey string) bool {
	src, err := a.cluster.NewSource(spec)
	if err != nil {
		a.Errorf("open %s: %s", res.FullName(), err)
		return false
	}
	t := a.newTable(res, src, title)
	t.SelectWhenShown(selectKey)
	a.Push(t)
	return true
}

// openNamespacePicker pushes the live list of namespaces; Enter picks one.
func (a *App) openNamespacePicker() {
	res := a.catalogEntry(namespacesResource())
	a.openSpec(res, watch.Spec{GVR: res.GVR()}, "namespaces", "")
}

// setNamespace switches the current namespace ("" = all) and reopens the nearest namespaced table in it.
func (a *App) setNamespace(ns string) {
	if errs := validation.IsDNS1123Label(ns); ns != "" && len(errs) > 0 {
		a.Errorf("invalid namespace %q: %s", ns, errs[0])
		return
	}
	a.namespace = ns
	a.addFavorite(ns)
	a.top().NamespaceChanged(ns)
	if ns == "" {
		a.Message("namespace: all")
	} else {
		a.Message("namespace: " + ns)
		a.warnIfNamespaceMissing(ns)
	}
	a.refreshChrome()
}

// resourceForKind finds the catalog's resource for apiVersion and kind (an ownerReference).
func (a *App) resourceForKind(apiVersion, kind string) (discovery.Resource, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return discovery.Resource{}, fmt.Errorf("owner apiVersion %q: %w", apiVersion, err)
	}
	for _, r := range a.cluster.Catalog().Resources() {
		if r.Group == gv.Group && r.Kind == kind {
			return r, nil
		}
	}
	return discovery.Resource{}, fmt.Errorf("no resource of kind %s in %s is served", kind, apiVersion)
}

// expandAlias replaces an alias at the start of a command line with what it stands for (once: an alias
// naming another alias is not expanded again).
func (a *App) expandAlias(text string) string {
	first, rest, _ := strings.Cut(strings.TrimSpace(text), " ")
	target, ok := a.opts.Aliases[first]
	if !ok {
		return text
	}
	if rest = strings.TrimSpace(rest); rest != "" {
		return target + " " + rest
	}
	return target
}
