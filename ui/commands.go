package ui

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

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

func (a *App) openCommandBar() {
	a.bar.Open(":", "", a.command, a.completeCommand)
}

// command runs what the user typed after `:`.
func (a *App) command(text string) {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return
	}
	switch fields[0] {
	case "q", "quit", "q!":
		a.quit()
	case "help":
		a.showHelp()
	case "ns", "namespace":
		if len(fields) > 1 {
			a.setNamespace(fields[1])
			return
		}
		a.openNamespacePicker()
	case "ctx", "context":
		if len(fields) < 2 {
			a.errorf("usage: :ctx NAME (contexts: %s)", strings.Join(a.cluster.Info().Contexts, ", "))
			return
		}
		a.switchContext(fields[1])
	default:
		if len(fields) > 1 {
			a.errorf("unknown command %q: try :RESOURCE, :ns [NAME], :ctx NAME or :q", text)
			return
		}
		a.openResolved(a.cluster.Catalog(), fields[0])
	}
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
	candidates := []string{"ns", "ctx", "q", "quit", "help"} // the bar's own commands
	for _, r := range a.cluster.Catalog().Resources() {
		candidates = append(candidates, r.Name, r.FullName())
		candidates = append(candidates, r.ShortNames...)
		if r.SingularName != "" {
			candidates = append(candidates, r.SingularName)
		}
	}
	word, matches := completeWord(text, candidates)
	if len(matches) == 1 && (word == "ns" || word == "ctx") {
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
	res := namespacesResource()
	a.openSpec(res, watch.Spec{GVR: res.GVR()}, "namespaces", "")
}

// setNamespace switches the current namespace ("" = all) and reopens the nearest namespaced table in it.
func (a *App) setNamespace(ns string) {
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
