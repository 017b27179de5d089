package cluster

import (
	"context"
)

// Debug is kubectl debug: an ephemeral container added to a running pod (kubectl debug POD --image=I
// --target=C --profile=P) and a debug pod on a node (kubectl debug node/N). Implementations are safe for
// concurrent use. DebugPod and DebugNode block for at most their requests; WaitRunning blocks until the
// container runs, ends, or ctx ends. Both are writes: read-only mode refuses them.
type Debug interface {
	// DebugPod adds an ephemeral container with opts to pod name, through its ephemeralcontainers
	// subresource, if the pod is still pre.UID (else a Conflict, nothing written); it returns the
	// container's name (debugger-xxxxx, a name no container of the pod has).
	DebugPod(ctx context.Context, namespace, name string, opts DebugOptions, pre Precondition) (container string, err error)
	// DebugNode creates a debug pod on node (node-debugger-NODE-xxxxx in namespace: the node's PID, network
	// and IPC namespaces, its root filesystem at /host, as opts.Profile has it) and returns its name.
	DebugNode(ctx context.Context, node, namespace string, opts DebugOptions) (pod string, err error)
	// WaitRunning waits until container (a container or an ephemeral container of pod name) is running;
	// an error when it ended first, the pod went away, or ctx ended (then with the container's last
	// waiting reason, when it had one).
	WaitRunning(ctx context.Context, namespace, name, container string) error
}

// DebugOptions are kubectl debug's flags kscope asks for. A plain value.
type DebugOptions struct {
	// Image is --image (kubectl has no default; kscope's is DefaultDebugImage).
	Image string
	// Target is --target: the container whose process namespace the ephemeral container joins ("" none);
	// unused on a node.
	Target string
	// Profile is --profile: one of DebugProfiles ("": general).
	Profile string
}

// DefaultDebugImage is the image kscope offers first.
const DefaultDebugImage = "busybox"

// DebugProfiles are kubectl debug's profiles (--profile), the default (general) first.
func DebugProfiles() []string {
	return []string{"general", "baseline", "restricted", "netadmin", "sysadmin", "legacy"}
}
