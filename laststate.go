package main

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
	last, ok := state.Contexts[context]
	if !ok {
		return nil
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
			return []string{fmt.Sprintf("state: context %q: namespace %q: %s", context, ns, errs[0])}
		}
		o.flags.Namespace = &ns
	}
	return nil
}

// rememberLastView records where the session ended (the context, the resource of its last table, its
// namespace, "" for all) in the state file; a failure is the line returned ("" for none).
func rememberLastView(dirs config.Dirs, context, resource, namespace string) string {
	if namespace == "" {
		namespace = "all"
	}
	if err := config.RememberView(dirs, context, config.LastView{Resource: resource, Namespace: namespace}); err != nil {
		return "kscope: could not remember the last view: " + err.Error()
	}
	return ""
}
