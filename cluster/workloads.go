package cluster

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Workloads are the verbs on workloads and pods beyond Objects': a cronjob's manual run and its suspension,
// a container's image, a pod killed at once, an object's labels and annotations. Implementations are safe for concurrent use; each method blocks
// for at most its requests. Every write carries a precondition and writes nothing when it fails (a Conflict).
type Workloads interface {
	// Trigger creates a Job from cronjob name's jobTemplate now, as `kubectl create job --from=cronjob/NAME`
	// does (owned by the cronjob, annotated cronjob.kubernetes.io/instantiate: manual), if the cronjob is
	// still uid; it returns the Job's name.
	Trigger(ctx context.Context, namespace, name string, uid types.UID) (job string, err error)
	// Suspend sets a cronjob's spec.suspend (true: no more scheduled runs; false: resume), if pre holds.
	Suspend(ctx context.Context, namespace, name string, suspend bool, pre Precondition) error
	// Images reads the containers of an object's pod spec (a pod's, a workload's pod template, a cronjob's
	// job template), init containers first, and the precondition a SetImage from that read carries: the
	// object's UID (the image is set whatever else changed since, its status for one, as kubectl set image
	// does; never on another object of the same name).
	Images(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) ([]ContainerImage, Precondition, error)
	// SetImage sets the image of container (a container or an init container of the object's pod
	// template, or of the pod) as `kubectl set image` does, if pre holds.
	SetImage(ctx context.Context, gvr schema.GroupVersionResource, namespace, name, container, image string, pre Precondition) error
	// Label changes the labels (field "labels") or annotations ("annotations") of an object, as kubectl
	// label and annotate --overwrite do: each key of changes set to its value, or removed when the value is
	// nil; if the object is still pre.UID.
	Label(ctx context.Context, gvr schema.GroupVersionResource, namespace, name, field string, changes map[string]*string, pre Precondition) error
	// Kill deletes pod name at once (grace period 0, as `kubectl delete --grace-period=0`), if it is still
	// uid.
	Kill(ctx context.Context, namespace, name string, uid types.UID) error
}

// ContainerImage is one container of a pod spec and its image. A plain value.
type ContainerImage struct {
	Name, Image string
	// Init is set for an init container.
	Init bool
}
