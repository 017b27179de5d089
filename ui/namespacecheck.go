package ui

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

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
