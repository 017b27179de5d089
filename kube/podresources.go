package kube

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	"kscope/ui"
	"kscope/watch"
)

// WatchPodResources implements ui.Cluster with a SharedIndexInformer over the pods of spec (protobuf, the
// namespace and selectors of the table), whose transform keeps of each pod only its name, namespace,
// resourceVersion and summed requests and limits: a few hundred bytes a pod, the full objects being
// garbage as soon as they are decoded. It runs until ctx ends. A clientset that cannot be built (it only
// fails on a config that Connect already refused) leaves a reader that never syncs.
func (c *Cluster) WatchPodResources(ctx context.Context, spec watch.Spec) ui.PodResourceReader {
	r := &podResourceReader{synced: make(chan struct{})}
	cs, err := c.protobufClientset()
	if err != nil {
		return r
	}
	lw := cache.NewFilteredListWatchFromClient(cs.CoreV1().RESTClient(), "pods", spec.Namespace,
		func(o *metav1.ListOptions) {
			o.LabelSelector, o.FieldSelector = spec.LabelSelector, spec.FieldSelector
		})
	r.informer = cache.NewSharedIndexInformerWithOptions(lw, &corev1.Pod{},
		cache.SharedIndexInformerOptions{ObjectDescription: "pod resources"})
	// SetTransform only fails once the informer has started.
	_ = r.informer.SetTransform(keepPodResources)
	go r.informer.RunWithContext(ctx)
	go func() {
		if cache.WaitForCacheSync(ctx.Done(), r.informer.HasSynced) {
			close(r.synced)
		}
	}()
	return r
}

// podResourceReader is the ui.PodResourceReader of WatchPodResources; safe for concurrent use.
type podResourceReader struct {
	informer cache.SharedIndexInformer // nil when it could not be built
	synced   chan struct{}
}

// Synced implements ui.PodResourceReader.
func (r *podResourceReader) Synced() <-chan struct{} { return r.synced }

// Get implements ui.PodResourceReader.
func (r *podResourceReader) Get(key string) (ui.PodResources, bool) {
	if r.informer == nil {
		return ui.PodResources{}, false
	}
	obj, ok, err := r.informer.GetStore().GetByKey(key)
	if err != nil || !ok {
		return ui.PodResources{}, false
	}
	o, ok := obj.(*podResourceObject)
	if !ok {
		return ui.PodResources{}, false
	}
	return o.resources, true
}

// podResourceObject is what the informer keeps of a pod.
type podResourceObject struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	resources ui.PodResources
}

// DeepCopyObject implements runtime.Object.
func (o *podResourceObject) DeepCopyObject() runtime.Object {
	c := *o
	c.ObjectMeta = *o.ObjectMeta.DeepCopy()
	return &c
}

// keepPodResources is the informer's transform: a pod becomes a podResourceObject; anything else (a
// tombstone) passes as it is.
func keepPodResources(obj any) (any, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	return &podResourceObject{
		ObjectMeta: metav1.ObjectMeta{Name: pod.Name, Namespace: pod.Namespace, ResourceVersion: pod.ResourceVersion},
		resources:  sumPodResources(&pod.Spec),
	}, nil
}

// sumPodResources adds up the requests and limits of the containers that run together: the pod's
// containers and its sidecars (init containers with restartPolicy Always), as k9s sums them. Quantities are
// added before they are rounded (CPU to millicores, memory to bytes).
func sumPodResources(spec *corev1.PodSpec) ui.PodResources {
	var reqCPU, limCPU, reqMem, limMem resource.Quantity
	add := func(c *corev1.Container) {
		reqCPU.Add(*c.Resources.Requests.Cpu())
		limCPU.Add(*c.Resources.Limits.Cpu())
		reqMem.Add(*c.Resources.Requests.Memory())
		limMem.Add(*c.Resources.Limits.Memory())
	}
	for i := range spec.InitContainers {
		if p := spec.InitContainers[i].RestartPolicy; p != nil && *p == corev1.ContainerRestartPolicyAlways {
			add(&spec.InitContainers[i])
		}
	}
	for i := range spec.Containers {
		add(&spec.Containers[i])
	}
	return ui.PodResources{
		RequestCPU: reqCPU.MilliValue(), LimitCPU: limCPU.MilliValue(),
		RequestMemory: reqMem.Value(), LimitMemory: limMem.Value(),
	}
}
