package cluster

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/tree"
	"kscope/watch"
)

// Sources builds what the screens keep live: the rows of a table, the latest state of one object, the
// metadata of the objects a relationship tree is drawn from. Implementations are safe for concurrent use.
// NewSource and NewTreeSource build without starting (nothing is sent until the source's Start);
// WatchObject returns at once and works on goroutines of its own until ctx ends.
type Sources interface {
	// NewSource builds (does not start) the live rows for spec.
	NewSource(spec watch.Spec) (RowSource, error)
	// WatchObject streams the latest state of one object until ctx ends (see watch.WatchObject).
	WatchObject(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) <-chan watch.ObjectEvent
	// NewTreeSource builds (does not start) the metadata-only lists and watches, one per kind, of every
	// object of kinds (namespaced kinds in namespace, "" for all; cluster-scoped ones everywhere) that a
	// relationship tree is drawn from.
	NewTreeSource(kinds []tree.Kind, namespace string) (TreeSource, error)
}

// RowSource is the live rows of one view; *watch.Source satisfies it. The UI calls Start once, reads the rest
// from its own goroutine and calls Stop when the view closes. Implementations must be safe for concurrent use.
type RowSource interface {
	Spec() watch.Spec
	Start(ctx context.Context)
	Stop()
	State() watch.State
	Columns() []watch.Column
	// Notify receives (coalesced) after rows or state changed.
	Notify() <-chan struct{}
	// Changes drains the change marks gathered since the previous call.
	Changes() watch.ChangeSet
	Snapshot(q watch.Query) watch.Snapshot
	Row(key string) (*watch.Row, bool)
}

// Settler is a RowSource that says when it has finished opening; *watch.Source and *watch.StaticSource are
// ones. An optional capability, found by type assertion.
type Settler interface {
	// Settled is closed once the first list, and the labels filled in behind it, are complete.
	Settled() <-chan struct{}
}

// Pulser is a RowSource that can tell what its informer has done (*watch.Source). An optional capability,
// found by type assertion; Pulse is safe for concurrent use.
type Pulser interface {
	Pulse() watch.Pulse
}

// Versioner is a RowSource that keeps its rows' versions (*watch.Source, *watch.StaticSource). An optional
// capability, found by type assertion; Versions is safe for concurrent use.
type Versioner interface {
	Versions(key string) []watch.RowVersion
}

// TreeSource is the metadata of every object of a tree's kinds, listed and watched; *tree.Source satisfies
// it. The UI calls Start once and Stop when the tree closes; the rest may be called from any goroutine.
type TreeSource interface {
	Start(ctx context.Context)
	Stop()
	// Notify receives (coalesced) after objects or the progress changed.
	Notify() <-chan struct{}
	Progress() tree.Progress
	Objects() []tree.Object
}
