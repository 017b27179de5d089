package logs

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// DefaultContainerAnnotation names the container kubectl logs and exec pick when none is given.
const DefaultContainerAnnotation = "kubectl.kubernetes.io/default-container"

// PodSelector is the label selector of the pods obj selects, whose logs a workload's logs view follows: a
// service's spec.selector, a workload's spec.selector (a LabelSelector). An empty selector is an error.
func PodSelector(obj *unstructured.Unstructured) (string, error) {
	if obj.GetKind() == "Service" {
		set, _, err := unstructured.NestedStringMap(obj.Object, "spec", "selector")
		if err != nil || len(set) == 0 {
			return "", fmt.Errorf("the service selects no pods (it has no spec.selector)")
		}
		return labels.SelectorFromSet(set).String(), nil
	}
	raw, ok, err := unstructured.NestedMap(obj.Object, "spec", "selector")
	if err != nil || !ok {
		return "", fmt.Errorf("%s has no spec.selector", obj.GetKind())
	}
	var ls metav1.LabelSelector
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &ls); err != nil {
		return "", fmt.Errorf("read spec.selector: %w", err)
	}
	sel, err := metav1.LabelSelectorAsSelector(&ls)
	if err != nil {
		return "", fmt.Errorf("read spec.selector: %w", err)
	}
	if sel.Empty() {
		return "", fmt.Errorf("%s selects every pod (empty selector): refusing to follow them all", obj.GetKind())
	}
	return sel.String(), nil
}

// ObjectGetter reads one object; cluster.Objects is one.
type ObjectGetter interface {
	Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error)
}

// ContainerEnded tells a Follower of one container to stop after its stream ended (it is meant for
// Follower.Ended): when the pod no longer exists, or the container has terminated for good (an init
// container, or a pod that has finished). Otherwise (a restart, a broken connection, an error reading the
// pod) the follower reconnects. It blocks for one request to c.
func ContainerEnded(ctx context.Context, c ObjectGetter, namespace, pod, container string) (stop bool, why string) {
	obj, err := c.Get(ctx, podsGVR, namespace, pod)
	if apierrors.IsNotFound(err) {
		return true, "pod deleted"
	}
	if err != nil {
		return false, ""
	}
	phase, _, _ := unstructured.NestedString(obj.Object, "status", "phase")
	for _, field := range []string{"initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"} {
		list, _, _ := unstructured.NestedSlice(obj.Object, "status", field)
		for _, st := range list {
			m, _ := st.(map[string]any)
			if m["name"] != container {
				continue
			}
			_, terminated, _ := unstructured.NestedMap(m, "state", "terminated")
			if terminated && (field != "containerStatuses" || phase == "Succeeded" || phase == "Failed") {
				return true, "container exited"
			}
		}
	}
	return false, ""
}

// PodContainers returns a pod's container names: init containers, containers, ephemeral containers (the
// order of kubectl logs --all-containers), and the one kubectl picks when none is given (DefaultContainer;
// "" for none).
func PodContainers(pod *unstructured.Unstructured) (names []string, chosen string) {
	firstRegular := -1
	for _, field := range []string{"initContainers", "containers", "ephemeralContainers"} {
		list, _, _ := unstructured.NestedSlice(pod.Object, "spec", field)
		for _, c := range list {
			if m, ok := c.(map[string]any); ok {
				if name, ok := m["name"].(string); ok {
					if field == "containers" && firstRegular < 0 {
						firstRegular = len(names)
					}
					names = append(names, name)
				}
			}
		}
	}
	if i := DefaultContainer(names, pod.GetAnnotations(), firstRegular); i >= 0 {
		chosen = names[i]
	}
	return names, chosen
}

// DefaultContainer returns the index in names of the container kubectl (logs, exec) picks when none is
// given: the one the default-container annotation (DefaultContainerAnnotation) names, else first (the pod's
// first regular container; -1 for none).
func DefaultContainer(names []string, annotations map[string]string, first int) int {
	if want := annotations[DefaultContainerAnnotation]; want != "" {
		for i, n := range names {
			if n == want {
				return i
			}
		}
	}
	return first
}
