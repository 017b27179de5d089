package kube

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/json"

	"kscope/cluster"
)

// TestDebugContainerProfiles: the ephemeral container per profile, with the security context kubectl
// debug's profiles give it (k8s.io/kubectl/pkg/cmd/debug/profiles.go).
func TestDebugContainerProfiles(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app"}, {Name: "sidecar"}}}}
	tests := []struct {
		profile string
		want    string // the security context, as JSON
	}{
		{"", `{"capabilities":{"add":["SYS_PTRACE"]}}`},
		{"general", `{"capabilities":{"add":["SYS_PTRACE"]}}`},
		{"legacy", `null`},
		{"baseline", `null`},
		{"restricted", `{"capabilities":{"drop":["ALL"]},"runAsNonRoot":true,"allowPrivilegeEscalation":false,"seccompProfile":{"type":"RuntimeDefault"}}`},
		{"netadmin", `{"capabilities":{"add":["NET_ADMIN","NET_RAW"]}}`},
		{"sysadmin", `{"privileged":true}`},
	}
	for _, tt := range tests {
		ec, err := debugContainer(pod, cluster.DebugOptions{Image: "busybox", Target: "app", Profile: tt.profile})
		if err != nil {
			t.Fatalf("%q: %v", tt.profile, err)
		}
		got, _ := json.Marshal(ec.SecurityContext)
		if string(got) != tt.want {
			t.Errorf("%q: security context %s, want %s", tt.profile, got, tt.want)
		}
		if !strings.HasPrefix(ec.Name, "debugger-") || len(ec.Name) != len("debugger-")+5 || ec.Image != "busybox" ||
			ec.TargetContainerName != "app" || !ec.Stdin || !ec.TTY {
			t.Errorf("%q: container %+v, want debugger-xxxxx, busybox, target app, stdin and tty", tt.profile, ec.EphemeralContainerCommon)
		}
		if len(ec.VolumeMounts) != 0 {
			t.Errorf("%q: mounts %v in an ephemeral container", tt.profile, ec.VolumeMounts)
		}
	}
	if _, err := debugContainer(pod, cluster.DebugOptions{Image: "busybox", Profile: "paranoid"}); err == nil {
		t.Error("profile paranoid: no error")
	}
	if _, err := debugContainer(pod, cluster.DebugOptions{Image: "busybox", Target: "nope"}); err == nil {
		t.Error("target nope: no error")
	}
}

// TestNodeDebugPodProfiles: the node's debug pod per profile: the host's namespaces and root at /host
// where kubectl debug node/N gives them.
func TestNodeDebugPodProfiles(t *testing.T) {
	tests := []struct {
		profile         string
		hostNS, hostFS  bool
		securityContext string
	}{
		{"", true, true, `null`},
		{"general", true, true, `null`},
		{"legacy", true, true, `null`},
		{"baseline", false, false, `null`},
		{"restricted", false, false, `{"capabilities":{"drop":["ALL"]},"runAsNonRoot":true,"allowPrivilegeEscalation":false,"seccompProfile":{"type":"RuntimeDefault"}}`},
		{"netadmin", true, false, `{"capabilities":{"add":["NET_ADMIN","NET_RAW"]}}`},
		{"sysadmin", true, true, `{"privileged":true}`},
	}
	for _, tt := range tests {
		pod, err := nodeDebugPod("n1", "ops", cluster.DebugOptions{Image: "busybox", Profile: tt.profile})
		if err != nil {
			t.Fatalf("%q: %v", tt.profile, err)
		}
		s, c := pod.Spec, pod.Spec.Containers[0]
		if !strings.HasPrefix(pod.Name, "node-debugger-n1-") || pod.Namespace != "ops" || s.NodeName != "n1" ||
			s.RestartPolicy != corev1.RestartPolicyNever || c.Name != "debugger" || !c.Stdin || !c.TTY {
			t.Errorf("%q: pod %s/%s on %q, container %q", tt.profile, pod.Namespace, pod.Name, s.NodeName, c.Name)
		}
		if got := s.HostPID && s.HostNetwork && s.HostIPC; got != tt.hostNS || (!tt.hostNS && (s.HostPID || s.HostNetwork)) {
			t.Errorf("%q: host namespaces pid %v net %v ipc %v, want %v", tt.profile, s.HostPID, s.HostNetwork, s.HostIPC, tt.hostNS)
		}
		hostFS := len(c.VolumeMounts) == 1 && c.VolumeMounts[0].MountPath == "/host" && len(s.Volumes) == 1 &&
			s.Volumes[0].HostPath != nil && s.Volumes[0].HostPath.Path == "/"
		if hostFS != tt.hostFS || (!tt.hostFS && len(s.Volumes) > 0) {
			t.Errorf("%q: volumes %v mounts %v, want the host's root at /host: %v", tt.profile, s.Volumes, c.VolumeMounts, tt.hostFS)
		}
		if got, _ := json.Marshal(c.SecurityContext); string(got) != tt.securityContext {
			t.Errorf("%q: security context %s, want %s", tt.profile, got, tt.securityContext)
		}
	}
}

// TestContainerRunning: a debug container's state as WaitRunning reads it.
func TestContainerRunning(t *testing.T) {
	pod := &corev1.Pod{Status: corev1.PodStatus{EphemeralContainerStatuses: []corev1.ContainerStatus{
		{Name: "up", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
		{Name: "pulling", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ErrImagePull", Message: "no such image"}}},
		{Name: "done", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 1}}},
	}}}
	tests := []struct {
		container, waiting string
		running, err       bool
	}{
		{"up", "", true, false},
		{"pulling", "ErrImagePull: no such image", false, false},
		{"done", "", false, true},
		{"absent", "", false, false},
	}
	for _, tt := range tests {
		var waiting string
		running, err := containerRunning(pod, tt.container, &waiting)
		if running != tt.running || (err != nil) != tt.err || waiting != tt.waiting {
			t.Errorf("%s: running %v, err %v, waiting %q; want %v, error %v, %q", tt.container, running, err, waiting, tt.running, tt.err, tt.waiting)
		}
	}
}

// TestEphemeralPatchKeepsOrder: the patch adds the new container after the existing ones, as kubectl's.
func TestEphemeralPatchKeepsOrder(t *testing.T) {
	pod := &corev1.Pod{Spec: corev1.PodSpec{EphemeralContainers: []corev1.EphemeralContainer{
		{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debugger-aaaaa"}}}}}
	ec := corev1.EphemeralContainer{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debugger-bbbbb", Image: "busybox"}}
	got, _ := json.Marshal(ephemeralPatch(pod, ec))
	want := `{"$setElementOrder/ephemeralContainers":[{"name":"debugger-aaaaa"},{"name":"debugger-bbbbb"}],` +
		`"ephemeralContainers":[{"name":"debugger-bbbbb","image":"busybox","resources":{}}]}`
	if string(got) != want {
		t.Errorf("patch %s, want %s", got, want)
	}
}
