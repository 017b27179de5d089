package forwards

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	kubectlutil "k8s.io/kubectl/pkg/util"
)

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// Target is what a forward reaches: an object (a pod, a service, a workload) and the port on its pods. A
// forward of a pod stays on the pod of that name (the one chosen, or one its controller re-created); a forward
// of anything else goes to one of its ready pods (see pin for which pods are its). A plain value.
type Target struct {
	// GVR, Namespace and Name name the object; Kind is its singular name (pod, service, deployment).
	GVR             schema.GroupVersionResource
	Kind            string
	Namespace, Name string
	Port            Port
}

// Port is the port a forward reaches on each pod it goes to.
type Port struct {
	// Service, for a service's forward, is the service's port: its target port is looked up on each pod (a
	// named target port may be another number on another pod).
	Service int32
	// Name, when set, is the container port's name, looked up on each pod; Number the port otherwise.
	Name   string
	Number int
}

// String is the target as :pf shows it: "shop/web-0:8080" for a pod, "service shop/web:80" or
// "deployment shop/api:8080" otherwise.
func (t Target) String() string {
	port := t.Port.Number
	if t.Port.Service != 0 {
		port = int(t.Port.Service)
	}
	if t.byName() {
		return fmt.Sprintf("%s/%s:%d", t.Namespace, t.Name, port)
	}
	return fmt.Sprintf("%s %s/%s:%d", t.Kind, t.Namespace, t.Name, port)
}

// byName tells whether the target is one pod, followed by its name.
func (t Target) byName() bool { return t.GVR == podsGVR }

// eligible tells whether a forward of t may go to pod now: running and not being deleted; ready too unless
// t is that pod itself (kubectl forwards to a running pod, ready or not).
func (t Target) eligible(pod *corev1.Pod) bool {
	if pod.DeletionTimestamp != nil || pod.Status.Phase != corev1.PodRunning {
		return false
	}
	if t.byName() {
		return pod.Name == t.Name
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// podPort is the port of pod t reaches: the service's target port (svc, read for this attempt), the container
// port of that name, or the number.
func (t Target) podPort(svc *corev1.Service, pod *corev1.Pod) (int, error) {
	switch {
	case t.Port.Service != 0:
		n, err := kubectlutil.LookupContainerPortNumberByServicePort(*svc, *pod, t.Port.Service)
		if err != nil {
			return 0, fmt.Errorf("service %s port %d on pod %s: %w", svc.Name, t.Port.Service, pod.Name, err)
		}
		return int(n), nil
	case t.Port.Name != "":
		for _, c := range pod.Spec.Containers {
			for _, p := range c.Ports {
				if p.Name == t.Port.Name {
					return int(p.ContainerPort), nil
				}
			}
		}
		return 0, fmt.Errorf("pod %s has no port named %s", pod.Name, t.Port.Name)
	}
	return t.Port.Number, nil
}

// resolve finds the pod a forward pinned by p goes to now and its port: the first eligible pod (the most
// active) of those p allows whose port is found. A stopError when what p follows was replaced or is gone for
// good.
func (p pin) resolve(ctx context.Context, c Cluster) (*corev1.Pod, int, error) {
	t := p.target
	pods, svc, err := p.candidates(ctx, c)
	if err != nil {
		return nil, 0, err
	}
	if t.Port.Service != 0 && svc == nil {
		return nil, 0, fmt.Errorf("%s %s/%s is not a service: it has no service port %d", t.Kind, t.Namespace, t.Name,
			t.Port.Service)
	}
	var portErr error
	for i := range pods {
		pod := &pods[i]
		if !t.eligible(pod) {
			continue
		}
		port, err := t.podPort(svc, pod)
		if err == nil {
			return pod, port, nil
		}
		portErr = err
	}
	switch {
	case portErr != nil:
		return nil, 0, portErr
	case t.byName() && len(pods) == 0:
		return nil, 0, fmt.Errorf("no pod %s/%s", t.Namespace, t.Name)
	case t.byName():
		return nil, 0, fmt.Errorf("pod %s/%s is not running", t.Namespace, t.Name)
	}
	return nil, 0, fmt.Errorf("no ready pod of %s %s/%s", t.Kind, t.Namespace, t.Name)
}

// ReadService reads a service from u, each port's target port defaulted to its port when unset (the API server
// defaults it; a test's object may not).
func ReadService(u *unstructured.Unstructured) (*corev1.Service, error) {
	svc := &corev1.Service{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, svc); err != nil {
		return nil, fmt.Errorf("read service %s: %w", u.GetName(), err)
	}
	for i, p := range svc.Spec.Ports {
		if p.TargetPort == (intstr.IntOrString{}) {
			svc.Spec.Ports[i].TargetPort = intstr.FromInt32(p.Port)
		}
	}
	return svc, nil
}
