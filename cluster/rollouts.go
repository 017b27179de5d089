package cluster

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Rollouts are the revisions of a deployment, statefulset or daemonset and the undo to one of them, as
// `kubectl rollout history` and `kubectl rollout undo --to-revision` read and write them: a deployment's
// ReplicaSets, a statefulset's or daemonset's ControllerRevisions. Implementations are safe for concurrent
// use; each method blocks for at most its requests.
type Rollouts interface {
	// Revisions reads the revisions of workload name (gvr: apps/v1 deployments, statefulsets or daemonsets),
	// oldest first, and the workload's UID, the precondition of an Undo from that read.
	Revisions(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) ([]Revision, types.UID, error)
	// Undo sets the workload's pod template to revision's (a deployment's change-cause too, as kubectl
	// does), if the workload is still uid; with dryRun the server only says what it would store (nothing is
	// written). It returns the pod template the workload has (or would have) after it.
	Undo(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, revision int64, uid types.UID, dryRun bool) (template map[string]any, err error)
}

// Revision is one revision of a workload. A plain value; Template must not be modified.
type Revision struct {
	// Number is the revision (deployment.kubernetes.io/revision of a ReplicaSet, a ControllerRevision's
	// revision).
	Number int64
	// ChangeCause is its kubernetes.io/change-cause annotation ("" if none).
	ChangeCause string
	// Created is when its ReplicaSet or ControllerRevision was created.
	Created time.Time
	// Template is its pod template (metadata and spec; a ReplicaSet's pod-template-hash label left out).
	Template map[string]any
	// Current is set on the revision the workload runs now.
	Current bool
}
