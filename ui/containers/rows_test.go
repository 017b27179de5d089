package containers

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestRows: a pod's containers as the table lists them: init containers (a sidecar marked), the
// containers, the ephemeral ones; each with its status (or Pending without one), ports and probes.
func TestRows(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	probe := &corev1.Probe{}
	tests := []struct {
		name string
		pod  corev1.Pod
		want []Row
	}{
		{"no containers", corev1.Pod{}, nil},
		{"one running, ports and probes", corev1.Pod{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27",
				Ports:         []corev1.ContainerPort{{Name: "http", ContainerPort: 80}, {ContainerPort: 53, Protocol: corev1.ProtocolUDP}},
				LivenessProbe: probe, StartupProbe: probe}}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "web", Ready: true, RestartCount: 2,
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}}},
			[]Row{{Name: "web", Image: "nginx:1.27", Ready: "true", State: "Running", Restarts: 2,
				Ports: "http:80/TCP,53/UDP", Probes: "on:off:on"}}},
		{"init, sidecar, waiting, failed, ephemeral, no status", corev1.Pod{
			Spec: corev1.PodSpec{
				InitContainers: []corev1.Container{{Name: "migrate", Image: "db"}, {Name: "proxy", Image: "envoy", RestartPolicy: &always}},
				Containers:     []corev1.Container{{Name: "app", Image: "app", ReadinessProbe: probe}, {Name: "batch", Image: "job"}, {Name: "new", Image: "x"}},
				EphemeralContainers: []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
					Name: "debugger", Image: "busybox"}}},
			},
			Status: corev1.PodStatus{
				InitContainerStatuses: []corev1.ContainerStatus{
					{Name: "migrate", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed"}}},
					{Name: "proxy", Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}},
				ContainerStatuses: []corev1.ContainerStatus{
					{Name: "app", RestartCount: 7, State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}},
					{Name: "batch", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 3}}}},
				EphemeralContainerStatuses: []corev1.ContainerStatus{
					{Name: "debugger", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}}},
			}},
			[]Row{
				{Name: "migrate", Type: "init", Image: "db", Ready: "false", State: "Completed", Probes: "off:off:off"},
				{Name: "proxy", Type: "sidecar", Image: "envoy", Ready: "true", State: "Running", Probes: "off:off:off"},
				{Name: "app", Image: "app", Ready: "false", State: "CrashLoopBackOff", Restarts: 7, Probes: "off:on:off"},
				{Name: "batch", Image: "job", Ready: "false", State: "Terminated (exit 3)", Probes: "off:off:off"},
				{Name: "new", Image: "x", State: "Pending", Probes: "off:off:off"},
				{Name: "debugger", Type: "ephemeral", Image: "busybox", Ready: "false", State: "Waiting", Probes: "off:off:off"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Rows(&tt.pod); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("rows\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

// TestRowCells: a row's cells follow Headers.
func TestRowCells(t *testing.T) {
	r := Row{Name: "web", Type: "init", Image: "nginx", Ready: "true", State: "Running", Restarts: 3, Ports: "80/TCP", Probes: "on:on:off"}
	want := []string{"web", "init", "nginx", "true", "Running", "3", "80/TCP", "on:on:off"}
	if got := r.Cells(); !reflect.DeepEqual(got, want) || len(got) != len(Headers) {
		t.Errorf("cells %q, want %q (one per header of %q)", got, want, Headers)
	}
}

// TestPodFrom: an object that is not a pod's shape is an error naming it.
func TestPodFrom(t *testing.T) {
	bad := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "web"}, "spec": "nope"}}
	if _, err := PodFrom(bad); err == nil {
		t.Errorf("read a pod from %v", bad.Object)
	}
	good := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "i"}}}}}
	pod, err := PodFrom(good)
	if err != nil || len(pod.Spec.Containers) != 1 || pod.Spec.Containers[0].Name != "c" {
		t.Errorf("pod %+v, %v", pod, err)
	}
}
