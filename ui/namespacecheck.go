package ui

import (
	"context"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"kscope/ui/livetable"
)

// checkNamespaceAtStart checks ns, the namespace the session starts in: at once when no table opens at
// start, else once a table has settled, and only when that table shows no row of ns (a row proves the
// namespace: issue 51, a start of one table made this request before its first list). A start table that
// never settles (its list refused) leaves the check undone: its error says more. UI goroutine.
func (a *App) checkNamespaceAtStart(ns string) {
	if a.opts.Resource == "" || strings.Contains(a.opts.Resource, " @") || a.startsRegistered() {
		a.warnIfNamespaceMissing(ns)
		return
	}
	a.startNamespace = ns
}

// settledStart runs the check that checkNamespaceAtStart left, once, now that table t has settled. UI
// goroutine.
func (a *App) settledStart(t *livetable.Table) {
	ns := a.startNamespace
	if ns == "" {
		return
	}
	a.startNamespace = ""
	if _, scope := t.Scope(); scope == ns && len(t.Rows()) > 0 {
		return
	}
	a.warnIfNamespaceMissing(ns)
}

// warnIfNamespaceMissing asks the server, off the UI goroutine, whether namespace ns exists and, if the
// answer is NotFound, says so on the prompt line: an empty table alone does not tell a mistyped namespace
// from an empty one. Any other answer (no right to read namespaces, the server unreachable) says nothing.
func (a *App) warnIfNamespaceMissing(ns string) {
	cluster := a.cluster
	a.Go(func() {
		ctx, cancel := context.WithTimeout(a.ctx, RequestTimeout)
		defer cancel()
		if _, err := cluster.Get(ctx, namespacesResource().GVR(), "", ns); !apierrors.IsNotFound(err) {
			return
		}
		a.tv.QueueUpdateDraw(func() {
			a.dropFavorite(cluster.Info().Context, ns) // k9s drops a favourite that is no namespace
			if a.namespace == ns && a.cluster == cluster {
				a.Errorf("namespace %q not found", ns)
				a.refreshChrome()
			}
		})
	})
}
