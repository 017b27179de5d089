package cluster

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Access asks the server what the user may do, before a write is offered. Implementations are safe for
// concurrent use; Can makes one request, which changes nothing, and blocks for at most its duration. The
// answer is advice for the screens: the server checks every request again when it is made.
type Access interface {
	// Can asks the server whether the user may make the request q describes.
	Can(ctx context.Context, q AccessQuery) (AccessAnswer, error)
}

// AccessQuery is one request the user might make: a verb on a resource (or one of its subresources) in a
// namespace ("" for cluster-scoped resources, or every namespace), optionally of one named object.
type AccessQuery struct {
	Verb        string
	GVR         schema.GroupVersionResource
	Subresource string
	Namespace   string
	Name        string
}

// AccessAnswer is the server's answer to an AccessQuery, with the authorizer's reason when it gives one.
type AccessAnswer struct {
	Allowed bool
	Reason  string
}
