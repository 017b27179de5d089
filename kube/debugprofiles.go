package kube

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"kscope/cluster"
)

// The profiles of kubectl debug (--profile), as k8s.io/kubectl/pkg/cmd/debug's profiles.go applies them to
// an ephemeral container and to a node's debug pod; that package is not imported because it brings kubectl's
// commands (attach, exec, logs) and a module kscope does not use. The pod-copy style (--copy-to) is not here:
// kscope does not copy pods.

// debugStyle is what a profile is applied to: an ephemeral container in a pod, or a node's debug pod.
type debugStyle int

const (
	ephemeralStyle debugStyle = iota
	nodeStyle
)

// applyProfile applies profile ("" is general) to container c of spec, as kubectl debug does for style.
func applyProfile(profile string, style debugStyle, spec *corev1.PodSpec, c *corev1.Container) error {
	if profile == "" {
		profile = cluster.DebugProfiles()[0]
	}
	node := style == nodeStyle
	switch profile {
	case "legacy":
		if node {
			mountRootPartition(spec, c)
			useHostNamespaces(spec)
		}
	case "general":
		if node {
			mountRootPartition(spec, c)
			c.SecurityContext = nil
			useHostNamespaces(spec)
		} else {
			addCapability(c, "SYS_PTRACE")
		}
	case "baseline":
		c.SecurityContext = nil
	case "restricted":
		c.SecurityContext = &corev1.SecurityContext{
			RunAsNonRoot:             ptr(true),
			Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
			AllowPrivilegeEscalation: ptr(false),
			SeccompProfile:           &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		}
	case "netadmin":
		addCapability(c, "NET_ADMIN")
		addCapability(c, "NET_RAW")
		if node {
			useHostNamespaces(spec)
		}
	case "sysadmin":
		if c.SecurityContext == nil {
			c.SecurityContext = &corev1.SecurityContext{}
		}
		c.SecurityContext.Privileged = ptr(true)
		if node {
			useHostNamespaces(spec)
			mountRootPartition(spec, c)
		}
	default:
		return fmt.Errorf("unknown debug profile %q (one of %v)", profile, cluster.DebugProfiles())
	}
	return nil
}

// mountRootPartition mounts the host's root at /host in c.
func mountRootPartition(spec *corev1.PodSpec, c *corev1.Container) {
	const volume = "host-root"
	spec.Volumes = append(spec.Volumes, corev1.Volume{Name: volume,
		VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/"}}})
	c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: volume, MountPath: "/host"})
}

// useHostNamespaces puts the pod in the host's network, PID and IPC namespaces.
func useHostNamespaces(spec *corev1.PodSpec) {
	spec.HostNetwork, spec.HostPID, spec.HostIPC = true, true, true
}

// addCapability adds capability to c's security context.
func addCapability(c *corev1.Container, capability corev1.Capability) {
	if c.SecurityContext == nil {
		c.SecurityContext = &corev1.SecurityContext{}
	}
	if c.SecurityContext.Capabilities == nil {
		c.SecurityContext.Capabilities = &corev1.Capabilities{}
	}
	c.SecurityContext.Capabilities.Add = append(c.SecurityContext.Capabilities.Add, capability)
}

func ptr[T any](v T) *T { return &v }
