package containers

import (
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Headers are the columns of the containers table, in the order Row.Cells gives them.
var Headers = []string{"NAME", "TYPE", "IMAGE", "READY", "STATE", "RESTARTS", "PORTS", "PROBES(L:R:S)"}

// Row is one container of a pod as the table shows it. A plain value.
type Row struct {
	// Name is the container's name; Type says which list of the pod it is in: "init", "sidecar" (an init
	// container that keeps running: restartPolicy Always), "" (the pod's containers) or "ephemeral".
	Name, Type string
	Image      string
	// Ready is the status's ready flag ("true", "false"; "" without a status yet).
	Ready string
	// State is Running, the reason it waits (else Waiting), or the reason it ended (else Terminated) with
	// its exit code when not 0; Pending without a status yet.
	State    string
	Restarts int32
	// Ports are its declared ports as NAME:PORT/PROTOCOL (PORT/PROTOCOL without a name), comma-separated.
	Ports string
	// Probes are its liveness, readiness and startup probes, each on or off: "on:off:off".
	Probes string
}

// Cells are the row's texts, one per Headers column.
func (r Row) Cells() []string {
	return []string{r.Name, r.Type, r.Image, r.Ready, r.State, strconv.Itoa(int(r.Restarts)), r.Ports, r.Probes}
}

// PodFrom reads a pod from its unstructured object.
func PodFrom(obj *unstructured.Unstructured) (*corev1.Pod, error) {
	pod := &corev1.Pod{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, pod); err != nil {
		return nil, fmt.Errorf("read pod %s: %w", obj.GetName(), err)
	}
	return pod, nil
}

// Rows are pod's containers as kubectl lists them in its spec: the init containers (sidecars marked), the
// containers, then the ephemeral containers, each with its status.
func Rows(pod *corev1.Pod) []Row {
	var rows []Row
	for _, c := range pod.Spec.InitContainers {
		kind := "init"
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			kind = "sidecar"
		}
		rows = append(rows, row(c, kind, pod.Status.InitContainerStatuses))
	}
	for _, c := range pod.Spec.Containers {
		rows = append(rows, row(c, "", pod.Status.ContainerStatuses))
	}
	for _, e := range pod.Spec.EphemeralContainers {
		rows = append(rows, row(corev1.Container(e.EphemeralContainerCommon), "ephemeral", pod.Status.EphemeralContainerStatuses))
	}
	return rows
}

// row is container c of the list kind names, with its status among statuses.
func row(c corev1.Container, kind string, statuses []corev1.ContainerStatus) Row {
	r := Row{Name: c.Name, Type: kind, Image: c.Image, State: "Pending", Ports: ports(c.Ports),
		Probes: onOff(c.LivenessProbe) + ":" + onOff(c.ReadinessProbe) + ":" + onOff(c.StartupProbe)}
	for _, s := range statuses {
		if s.Name == c.Name {
			r.Ready, r.State, r.Restarts = strconv.FormatBool(s.Ready), state(s.State), s.RestartCount
			break
		}
	}
	return r
}

// state is the text of a container's state.
func state(s corev1.ContainerState) string {
	switch {
	case s.Running != nil:
		return "Running"
	case s.Waiting != nil:
		return orElse(s.Waiting.Reason, "Waiting")
	case s.Terminated != nil:
		text := orElse(s.Terminated.Reason, "Terminated")
		if s.Terminated.ExitCode != 0 {
			text += fmt.Sprintf(" (exit %d)", s.Terminated.ExitCode)
		}
		return text
	}
	return "Pending"
}

func orElse(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ports are ps as NAME:PORT/PROTOCOL, comma-separated.
func ports(ps []corev1.ContainerPort) string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		text := fmt.Sprintf("%d/%s", p.ContainerPort, orElse(string(p.Protocol), "TCP"))
		if p.Name != "" {
			text = p.Name + ":" + text
		}
		out = append(out, text)
	}
	return strings.Join(out, ",")
}

func onOff(p *corev1.Probe) string {
	if p == nil {
		return "off"
	}
	return "on"
}
