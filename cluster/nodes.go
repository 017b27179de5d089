package cluster

import (
	"context"
	"time"
)

// Nodes are the verbs on nodes: kubectl cordon, uncordon and drain. Implementations are safe for concurrent
// use. Cordon and DrainPlan block for at most their requests; Drain blocks until every pod it evicts is gone,
// DrainOptions.Timeout passes or ctx ends. Writes carry pre (the node's UID): a node deleted and re-created
// under the same name since the user chose it is left alone (a Conflict).
type Nodes interface {
	// Cordon marks node name unschedulable (kubectl cordon), or schedulable again when unschedulable is false
	// (kubectl uncordon).
	Cordon(ctx context.Context, name string, unschedulable bool, pre Precondition) error
	// DrainPlan says what Drain with opts would do to node name now, writing nothing: the pods it would evict
	// and the pods it would leave (daemonsets' and mirror pods), kubectl drain's warnings; or, as an error,
	// why it would refuse (pods with local storage without DeleteEmptyDirData, pods without a controller
	// without Force), as kubectl drain says it.
	DrainPlan(ctx context.Context, name string, opts DrainOptions) (DrainPlan, error)
	// Drain cordons node name (pre), then evicts its pods as kubectl drain does, through the Eviction API
	// (PodDisruptionBudgets are respected: an eviction they forbid is retried until Timeout), and waits for
	// them to be gone. progress is called, from any goroutine, as each eviction starts and ends.
	Drain(ctx context.Context, name string, opts DrainOptions, pre Precondition, progress func(DrainEvent)) error
}

// DrainOptions are kubectl drain's flags. A plain value; the zero value is kubectl's defaults but for
// GracePeriod (0 would delete at once: use -1 for each pod's own terminationGracePeriodSeconds).
type DrainOptions struct {
	// GracePeriod is --grace-period, in seconds: -1, each pod's own.
	GracePeriod int
	// Timeout is --timeout: how long Drain waits for the pods to go (0: as long as ctx allows).
	Timeout time.Duration
	// IgnoreDaemonSets is --ignore-daemonsets; DeleteEmptyDirData --delete-emptydir-data; Force --force
	// (pods without a controller are deleted too).
	IgnoreDaemonSets, DeleteEmptyDirData, Force bool
}

// DrainPlan is what draining a node would do. A plain value.
type DrainPlan struct {
	// Evict are the pods drained, as namespace/name, in the server's order.
	Evict []string
	// Warnings is kubectl drain's warning line ("ignoring DaemonSet-managed Pods: …"), or empty.
	Warnings string
}

// DrainEvent is one step of a drain: a pod's eviction started (Done false) or ended (Done true; Err says why
// it failed).
type DrainEvent struct {
	// Pod is namespace/name.
	Pod  string
	Done bool
	Err  error
}
