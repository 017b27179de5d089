package ui

import (
	"context"

	"kscope/cluster"
	"kscope/watch"
)

// namespaceNames keeps a live list of the cluster's namespaces for `:ns` Tab completion. Where the user may
// not list namespaces, it offers none. Its watch starts only when the command bar first opens (want) or the
// names are first asked for: a start of one table makes no request for them (issue 51), and the list has
// arrived by the time `ns ` has been typed. UI goroutine only, except the source's own goroutines.
type namespaceNames struct {
	// start starts the watch; nil once it has been called (or the names stopped).
	start  func() (cluster.RowSource, context.CancelFunc)
	src    cluster.RowSource
	cancel context.CancelFunc
}

// watchNamespaceNames returns the namespace names of a's cluster, to be watched once wanted; it never fails
// (no completion instead).
func (a *App) watchNamespaceNames() *namespaceNames {
	c, ctx := a.cluster, a.ctx
	return &namespaceNames{start: func() (cluster.RowSource, context.CancelFunc) {
		src, err := c.NewSource(watch.Spec{GVR: namespacesResource().GVR()})
		if err != nil {
			return nil, nil
		}
		ctx, cancel := context.WithCancel(ctx)
		src.Start(ctx)
		return src, cancel
	}}
}

// want starts the watch unless it has been started.
func (n *namespaceNames) want() {
	if n == nil || n.start == nil {
		return
	}
	n.src, n.cancel = n.start()
	n.start = nil
}

// names returns the namespaces known now, starting the watch if it has not been (the first answer may then
// be empty).
func (n *namespaceNames) names() []string {
	n.want()
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
	if n == nil {
		return
	}
	n.start = nil
	if n.src == nil {
		return
	}
	n.cancel()
	a.Go(n.src.Stop)
}
