package kube

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"kscope/cluster"
)

// The informer's former transform, kept as the reference the streaming pod decoder is checked against: a
// pod decoded whole by the generated code, then summed by sumPodResources.

// podResourceObject is what the former informer kept of a pod (its transform's result).
type podResourceObject struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	resources cluster.PodResources
}

// DeepCopyObject implements runtime.Object.
func (o *podResourceObject) DeepCopyObject() runtime.Object {
	c := *o
	c.ObjectMeta = *o.ObjectMeta.DeepCopy()
	return &c
}

// keepPodResources is the former informer's transform: a pod becomes a podResourceObject; anything else (a
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
func sumPodResources(spec *corev1.PodSpec) cluster.PodResources {
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
	return cluster.PodResources{
		RequestCPU: reqCPU.MilliValue(), LimitCPU: limCPU.MilliValue(),
		RequestMemory: reqMem.Value(), LimitMemory: limMem.Value(),
	}
}
