package ui

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"

	"kscope/discovery"
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
	a.bar.Open(":", "", a.command, a.completeCommand)
}

// barCommand is one of the command bar's own commands (anything else typed after `:` names a resource).
type barCommand struct {
	// names are what the user may type (Tab completes each).
	names []string
	// args: the command takes words after its name.
	args bool
	run  func(args []string)
}

// barCommands is the one list of the command bar's own commands, for running and for completion.
func (a *App) barCommands() []barCommand {
	return []barCommand{
		{names: []string{"q", "quit", "q!"}, run: func([]string) { a.quit() }},
		{names: []string{"help"}, run: func([]string) { a.showHelp() }},
		{names: []string{"ns", "namespace"}, args: true, run: func(args []string) {
			if len(args) > 0 {
				a.setNamespace(args[0])
				return
			}
			a.openNamespacePicker()
		}},
		{names: []string{"ctx", "context"}, args: true, run: func(args []string) {
			if len(args) == 0 {
				a.errorf("usage: :ctx NAME (contexts: %s)", strings.Join(a.cluster.Info().Contexts, ", "))
				return
			}
			a.switchContext(args[0])
		}},
	}
}

// command runs what the user typed after `:`.
func (a *App) command(text string) {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return
	}
	for _, c := range a.barCommands() {
		if slices.Contains(c.names, fields[0]) {
			c.run(fields[1:])
			return
		}
	}
	if len(fields) > 1 {
		a.errorf("unknown command %q: try :RESOURCE, :ns [NAME], :ctx NAME or :q", text)
		return
	}
	a.openResolved(a.cluster.Catalog(), fields[0])
}

// openResolved resolves input off the UI goroutine (an unknown name may re-read discovery from the server),
// then opens the resource's table, or says why it cannot.
func (a *App) openResolved(catalog Catalog, input string) {
	a.goSafe(func() {
		res, err := catalog.Resolve(a.ctx, input)
		a.tv.QueueUpdateDraw(func() {
			if err != nil {
				a.errorf("%s", err.Error())
				return
			}
			a.popTo(1)
			a.openResource(res, "")
		})
	})
}

// completeCommand completes the command bar's text on Tab.
func (a *App) completeCommand(text string) (string, []string) {
	if rest, ok := strings.CutPrefix(text, "ns "); ok {
		word, matches := completeWord(strings.TrimSpace(rest), a.namespaces.names())
		return "ns " + word, matches
	}
	if rest, ok := strings.CutPrefix(text, "ctx "); ok {
		word, matches := completeWord(strings.TrimSpace(rest), a.cluster.Info().Contexts)
		return "ctx " + word, matches
	}
	if strings.Contains(text, " ") {
		return text, nil
	}
	var candidates, takeArgs []string
	for _, c := range a.barCommands() {
		candidates = append(candidates, c.names...)
		if c.args {
			takeArgs = append(takeArgs, c.names...)
		}
	}
	for _, r := range a.cluster.Catalog().Resources() {
		candidates = append(candidates, r.Name, r.FullName())
		candidates = append(candidates, r.ShortNames...)
		if r.SingularName != "" {
			candidates = append(candidates, r.SingularName)
		}
	}
	word, matches := completeWord(text, candidates)
	if len(matches) == 1 && slices.Contains(takeArgs, word) {
		word += " "
	}
	return word, matches
}

// openResource pushes a live table of res in the current namespace; selectKey, if set, is selected once it
// appears.
func (a *App) openResource(res discovery.Resource, selectKey string) {
	if !res.Has("list") || !res.Has("watch") {
		a.errorf("%s cannot be listed and watched (verbs: %s)", res.FullName(), strings.Join(res.Verbs, ","))
		return
	}
	spec := watch.Spec{GVR: res.GVR(), Namespaced: res.Namespaced}
	if res.Namespaced {
		spec.Namespace = a.namespace
	}
	a.openSpec(res, spec, res.Name, selectKey)
}

// openSpec pushes a live table for spec titled title.
func (a *App) openSpec(res discovery.Resource, spec watch.Spec, title, selectKey string) {
	src, err := a.cluster.NewSource(spec)
	if err != nil {
		a.errorf("open %s: %s", res.FullName(), err)
		return
	}
	t := NewLiveTable(a, res, src, title)
	t.selectKey = selectKey
	a.push(t)
}

// openNamespacePicker pushes the live list of namespaces; Enter picks one.
func (a *App) openNamespacePicker() {
	res := a.catalogEntry(namespacesResource())
	a.openSpec(res, watch.Spec{GVR: res.GVR()}, "namespaces", "")
}

// setNamespace switches the current namespace ("" = all) and reopens the nearest namespaced table in it.
func (a *App) setNamespace(ns string) {
	if errs := validation.IsDNS1123Label(ns); ns != "" && len(errs) > 0 {
		a.errorf("invalid namespace %q: %s", ns, errs[0])
		return
	}
	a.namespace = ns
	a.top().namespaceChanged(ns)
	if ns == "" {
		a.message("namespace: all")
	} else {
		a.message("namespace: " + ns)
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
