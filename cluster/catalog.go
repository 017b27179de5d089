package cluster

import (
	"context"

	"kscope/discovery"
)

// Catalog lists and resolves API resources; *discovery.Catalog satisfies it. Safe for concurrent use;
// Subscribe's callback runs on a catalog goroutine and must not touch tview.
type Catalog interface {
	Resources() []discovery.Resource
	Unavailable() []discovery.Unavailable
	// Resolve finds the resource input names; it may read discovery from the server until ctx ends.
	Resolve(ctx context.Context, input string) (discovery.Resource, error)
	Subscribe(fn func()) (cancel func())
	// ResolveList resolves a comma-separated list of names and categories as `kubectl get a,b` does (see
	// discovery.Catalog.ResolveList); it may read discovery from the server until ctx ends.
	ResolveList(ctx context.Context, input string) (discovery.List, error)
}
