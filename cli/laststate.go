package cli

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation"

	"kscope/config"
)

// applyLastView starts where the session in the kubeconfig context kscope starts in ended (config.State),
// as k9s keeps the last view and namespace per context: its resource when neither the command line nor
// config.yaml's defaultView names one, and its namespace when neither -n nor -A is given (over the context
// files' and the kubeconfig's). fromCommandLine tells whether -n or -A was given. It returns one line per
// problem (the state file unreadable, a namespace that is not a name), each otherwise ignored.
func (o *tuiOptions) applyLastView(dirs config.Dirs, context string, fromCommandLine bool) []string {
	state, err := config.LoadState(dirs)
	if err != nil {
		return config.Lines(err)
	}
	problems := o.rememberedFavorites(state)
	last, ok := state.Contexts[context]
	if !ok {
		return problems
	}
	if last.Resource != "" && o.files.startView == "" {
		o.files.startView = last.Resource
	}
	switch ns := last.Namespace; {
	case ns == "" || fromCommandLine:
	case ns == "all":
		o.allNamespaces = true
	default:
		if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
			return append(problems, fmt.Sprintf("state: context %q: namespace %q: %s", context, ns, errs[0]))
		}
		o.flags.Namespace = &ns
	}
	return problems
}

// rememberedFavorites takes every context's favourite namespaces from state; a name that is not a
// namespace's is left out, with one line.
func (o *tuiOptions) rememberedFavorites(state config.State) []string {
	var problems []string
	for context, last := range state.Contexts {
		var favs []string
		for _, ns := range last.Favorites {
			if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
				problems = append(problems, fmt.Sprintf("state: context %q: favourite namespace %q: %s", context, ns, errs[0]))
				continue
			}
			favs = append(favs, ns)
		}
		if len(favs) > 0 {
			if o.files.favorites == nil {
				o.files.favorites = map[string][]string{}
			}
			o.files.favorites[context] = favs[:min(len(favs), config.MaxFavorites)]
		}
	}
	return problems
}

// rememberLastView records where the session ended (the context, the resource of its last table, its
// namespace, "" for all) and the favourite namespaces of the contexts it knows in the state file; a failure
// is the line returned ("" for none).
func rememberLastView(dirs config.Dirs, context, resource, namespace string, favorites map[string][]string) string {
	if namespace == "" {
		namespace = "all"
	}
	if err := config.RememberView(dirs, context, config.LastView{Resource: resource, Namespace: namespace}, favorites); err != nil {
		return "kscope: could not remember the last view: " + err.Error()
	}
	return ""
}
