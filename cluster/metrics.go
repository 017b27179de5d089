package cluster

import (
	"context"

	"k8s.io/apimachinery/pkg/api/resource"

	"kscope/watch"
)

// Metrics are the figures of the pods and nodes tables' extra columns: usage from metrics.k8s.io (what
// `kubectl top` prints) and the pods' requests and limits it is divided by. Implementations are safe for
// concurrent use; PodMetrics and NodeMetrics block for their requests, WatchPodResources returns at once.
type Metrics interface {
	// PodMetrics lists the usage metrics.k8s.io/v1beta1 reports for the pods of namespace ("" = all) that
	// labelSelector selects, each summed over its containers as `kubectl top pods` sums them. It makes one
	// request and blocks for at most its duration; an error means the metrics API is missing or failing.
	PodMetrics(ctx context.Context, namespace, labelSelector string) ([]PodUsage, error)
	// NodeMetrics lists the usage metrics.k8s.io/v1beta1 reports for the nodes labelSelector selects, with
	// each node's allocatable CPU and memory (from a list of the nodes, as `kubectl top nodes` reads them).
	// It blocks for at most two requests.
	NodeMetrics(ctx context.Context, labelSelector string) ([]NodeUsage, error)
	// WatchPodResources keeps the summed requests and limits of the pods spec selects (its namespace and
	// selectors) until ctx ends, and returns at once; the reader it returns is safe for concurrent use and
	// answers nothing until its first list has arrived.
	WatchPodResources(ctx context.Context, spec watch.Spec) PodResourceReader
}

// PodUsage is one pod's usage as metrics.k8s.io reports it: CPU and memory summed over the pod's containers
// (resource.Quantity.Add, as `kubectl top pods` sums them). A plain value.
type PodUsage struct {
	Namespace, Name string
	CPU, Memory     resource.Quantity
}

// NodeUsage is one node's usage as metrics.k8s.io reports it, with the node's allocatable CPU and memory
// (status.allocatable, what `kubectl top nodes` divides by) when the node was listed. A plain value.
type NodeUsage struct {
	Name        string
	CPU, Memory resource.Quantity
	// HasAllocatable tells whether AllocatableCPU and AllocatableMemory are known.
	HasAllocatable                    bool
	AllocatableCPU, AllocatableMemory resource.Quantity
}

// PodResources is one pod's requests and limits summed over its containers and its sidecars (init
// containers with restartPolicy Always, which run beside them): CPU in millicores, memory in bytes, 0 where
// no container sets the figure. Requests are as the server returns them (a limit without a request has been
// defaulted into the request). A plain value.
type PodResources struct {
	RequestCPU, LimitCPU       int64
	RequestMemory, LimitMemory int64
}

// PodResourceReader answers the requests and limits of the pods that a Metrics.WatchPodResources keeps.
// Implementations are safe for concurrent use.
type PodResourceReader interface {
	// Synced is closed once the first list has arrived; before that Get finds nothing.
	Synced() <-chan struct{}
	// Get returns the resources of the pod with key "namespace/name".
	Get(key string) (PodResources, bool)
}
