package logs

import (
	"context"
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestPodSelector(t *testing.T) {
	for _, tc := range []struct {
		name, want, err string
		obj             map[string]any
	}{
		{name: "a service", want: "app=web",
			obj: map[string]any{"kind": "Service", "spec": map[string]any{"selector": map[string]any{"app": "web"}}}},
		{name: "a service without selector", err: "the service selects no pods (it has no spec.selector)",
			obj: map[string]any{"kind": "Service", "spec": map[string]any{}}},
		{name: "a deployment", want: "app=web,tier in (a,b)",
			obj: map[string]any{"kind": "Deployment", "spec": map[string]any{"selector": map[string]any{
				"matchLabels":      map[string]any{"app": "web"},
				"matchExpressions": []any{map[string]any{"key": "tier", "operator": "In", "values": []any{"a", "b"}}}}}}},
		{name: "an empty selector", err: "Deployment selects every pod (empty selector): refusing to follow them all",
			obj: map[string]any{"kind": "Deployment", "spec": map[string]any{"selector": map[string]any{}}}},
		{name: "no selector", err: "Job has no spec.selector", obj: map[string]any{"kind": "Job", "spec": map[string]any{}}},
	} {
		got, err := PodSelector(&unstructured.Unstructured{Object: tc.obj})
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) {
			t.Errorf("%s: %q, %v; want %q, %q", tc.name, got, err, tc.want, tc.err)
		}
	}
}

// getter answers Get with one pod, or an error.
type getter struct {
	pod *unstructured.Unstructured
	err error
}

func (g getter) Get(context.Context, schema.GroupVersionResource, string, string) (*unstructured.Unstructured, error) {
	return g.pod, g.err
}

func TestContainerEnded(t *testing.T) {
	pod := func(phase string, statuses ...any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{"phase": phase, "containerStatuses": statuses}}}
	}
	terminated := map[string]any{"name": "c", "state": map[string]any{"terminated": map[string]any{"exitCode": int64(0)}}}
	running := map[string]any{"name": "c", "state": map[string]any{"running": map[string]any{}}}
	for _, tc := range []struct {
		name string
		g    getter
		stop bool
		why  string
	}{
		{name: "pod deleted", g: getter{err: apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, "p")}, stop: true, why: "pod deleted"},
		{name: "cannot read the pod", g: getter{err: errors.New("connection refused")}},
		{name: "running", g: getter{pod: pod("Running", running)}},
		{name: "terminated, to be restarted", g: getter{pod: pod("Running", terminated)}},
		{name: "terminated, pod finished", g: getter{pod: pod("Succeeded", terminated)}, stop: true, why: "container exited"},
	} {
		stop, why := ContainerEnded(context.Background(), tc.g, "ns", "p", "c")
		if stop != tc.stop || why != tc.why {
			t.Errorf("%s: %v %q, want %v %q", tc.name, stop, why, tc.stop, tc.why)
		}
	}
}

// TestPodContainers: init containers, containers, ephemeral ones in kubectl's order; the default is the
// annotation's container, else the first regular one.
func TestPodContainers(t *testing.T) {
	pod := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{
		"initContainers":      []any{map[string]any{"name": "init"}},
		"containers":          []any{map[string]any{"name": "web"}, map[string]any{"name": "sidecar"}},
		"ephemeralContainers": []any{map[string]any{"name": "debug"}},
	}}}
	names, chosen := PodContainers(pod)
	if strings.Join(names, ",") != "init,web,sidecar,debug" || chosen != "web" {
		t.Errorf("containers %q, default %q; want init,web,sidecar,debug and web", names, chosen)
	}
	pod.SetAnnotations(map[string]string{DefaultContainerAnnotation: "sidecar"})
	if _, chosen := PodContainers(pod); chosen != "sidecar" {
		t.Errorf("default %q, want the annotation's sidecar", chosen)
	}
	pod.SetAnnotations(map[string]string{DefaultContainerAnnotation: "gone"})
	if _, chosen := PodContainers(pod); chosen != "web" {
		t.Errorf("default %q with an annotation naming no container, want web", chosen)
	}
	if names, chosen := PodContainers(&unstructured.Unstructured{Object: map[string]any{}}); names != nil || chosen != "" {
		t.Errorf("a pod without containers: %q, %q", names, chosen)
	}
}
