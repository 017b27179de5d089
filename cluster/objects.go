package cluster

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/discovery"
)

// Objects reads and writes one object at a time. Implementations are safe for concurrent use; each method
// makes its requests and returns, blocking for at most their duration (PodFor also waits, as long as ctx
// allows, for a pod to appear). Every write carries a precondition (a UID, a resourceVersion or both, as
// Precondition says) and writes nothing when the object is no longer the one the user was shown (a Conflict).
type Objects interface {
	// Get reads one full object.
	Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error)
	// Delete deletes one object (default propagation, like kubectl delete) if its UID is still uid: an
	// object deleted and re-created under the same name since the user chose it is left alone (Conflict).
	Delete(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, uid types.UID) error
	// Describe returns the text `kubectl describe` prints for one object of res (events included).
	Describe(ctx context.Context, res discovery.Resource, namespace, name string) (string, error)
	// Update replaces obj; its resourceVersion is the precondition (a Conflict when the object changed).
	Update(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error)
	// Replicas reads an object's scale subresource: spec.replicas and the scale's UID and resourceVersion.
	Replicas(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (ScaleState, error)
	// Scale sets spec.replicas through the scale subresource if pre still holds (else a Conflict, nothing
	// written), as `kubectl scale --resource-version` does.
	Scale(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, replicas int32, pre Precondition) error
	// Restart starts a rollout of a workload's pods (`kubectl rollout restart`), stamped with at, if pre
	// still holds (else a Conflict, nothing written).
	Restart(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, at time.Time, pre Precondition) error
	// PodFor returns the pod a shell or a port-forward to an object of gvr reaches, as kubectl picks it: the
	// pod itself, or for a service or a workload one of the pods its selector matches, the most active
	// first (waiting at most as long as ctx allows for one to appear).
	PodFor(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*corev1.Pod, error)
	// PodsFor returns, without waiting, the pods an object of gvr reaches now: the pod itself (none when it
	// does not exist), or for a service or a workload every pod its selector matches, the most active first
	// as PodFor ranks them. A port-forward that lost its pod finds the next one here.
	PodsFor(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) ([]corev1.Pod, error)
}

// Precondition is what a write requires of the object it acts on, checked by the server: UID, that it is
// the object the user was shown and not one deleted and re-created under the same name since; and, when
// set, ResourceVersion, that it has not changed since it was read. A write whose precondition fails is a
// Conflict and writes nothing. Every write kscope sends carries one (a delete its UID, an edit the
// resourceVersion of the text, a scale both, a restart the UID).
type Precondition struct {
	UID             types.UID
	ResourceVersion string
}

// ScaleState is an object's scale subresource as read: spec.replicas, and the precondition a scale from
// that read carries (the scale's UID and resourceVersion, as `kubectl scale --resource-version` sends it).
type ScaleState struct {
	Replicas int32
	Precondition
}
