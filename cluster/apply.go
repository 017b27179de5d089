package cluster

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Applier sends server-side applies (`kubectl apply --server-side`), field manager kscope. Implementations
// are safe for concurrent use; Apply makes one request and blocks for at most its duration.
type Applier interface {
	// Apply sends obj, an object of gvr named by its metadata.name, as an apply patch in namespace ("" for
	// a cluster-scoped resource) and returns the object as the server made it (with DryRun, as it would make
	// it, nothing stored). A field another manager owns with another value is a Conflict whose causes name
	// that manager (apierr.FieldConflicts), unless opts.Force takes the field over.
	Apply(ctx context.Context, gvr schema.GroupVersionResource, namespace string, obj *unstructured.Unstructured, opts ApplyOptions) (*unstructured.Unstructured, error)
}

// ApplyOptions are an Apply's flags: DryRun (dryRun=All: validated and computed by the server, nothing
// stored) and Force (force=true: take the fields other managers own).
type ApplyOptions struct {
	DryRun, Force bool
}
