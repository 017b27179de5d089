package ui

import (
	"context"

	"kscope/cluster"
	"kscope/watch"
)

// namespaceNames keeps a live list of the cluster's namespaces for `:ns` Tab completion. Where the user may
// not list namespaces, it offers none. UI goroutine only, except the source's own goroutines.
type namespaceNames struct {
	src    cluster.RowSource
	cancel context.CancelFunc
}

// watchNamespaceNames starts the namespace watch for completion; it never fails (no completion instead).
func (a *App) watchNamespaceNames() *namespaceNames {
	src, err := a.cluster.NewSource(watch.Spec{GVR: namespacesResource().GVR()})
	if err != nil {
		return &namespaceNames{}
	}
	ctx, cancel := context.WithCancel(a.ctx)
	src.Start(ctx)
	return &namespaceNames{src: src, cancel: cancel}
}

// names returns the namespaces known now.
func (n *namespaceNames) names() []string {
	if n == nil || n.src == nil {
		return nil
	}
	rows := n.src.Snapshot(watch.Query{SortColumn: -1}).Rows
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Name
	}
	return names
}

// stop ends the watch (off the UI goroutine: Stop waits for the informer).
func (n *namespaceNames) stop(a *App) {
	if n == nil || n.src == nil {
		return
	}
	n.cancel()
	a.Go(n.src.Stop)
}
