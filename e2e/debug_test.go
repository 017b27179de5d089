//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// debugShell runs, in the shell s has handed the terminal to, a command printing a marker, waits for its
// output, then exits the shell and waits for kscope's line saying the shell in ns/pod (container …) ended.
func debugShell(t *testing.T, s *tmuxUI, ns, pod string) {
	t.Helper()
	const marker = "hi-from-debug"
	s.typeText("echo " + marker)
	s.keys("Enter")
	s.waitUntil("the debug shell's output "+marker, func(scr string) bool {
		return slices.ContainsFunc(strings.Split(scr, "\n"), func(l string) bool { return strings.TrimSpace(l) == marker })
	})
	s.typeText("exit")
	s.keys("Enter")
	s.waitFor("shell in " + ns + "/" + pod)
}

// TestUIDebugNode: shift-b on a node asks the image (busybox) and the profile (general), confirms, then
// creates kubectl debug node/N's pod in the namespace shown (node-debugger-N-xxxxx on the node, in the
// host's PID and network namespaces, the host's root at /host) and runs a shell in it once kwok runs it.
func TestUIDebugNode(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	s := startUI(t, "-n", ns, "nodes")
	s.waitFor("nodes[", "kwok-node-0")
	s.typeText("/^kwok-node-0$")
	s.keys("Enter")
	s.waitFor("nodes[1]")
	s.keys("B")
	s.waitFor("image of the debug container for node kwok-node-0: busybox")
	s.keys("Enter")
	s.waitFor("debug profile", "sysadmin")
	s.keys("Enter")
	s.waitFor("Debug node kwok-node-0?")
	s.keys("Tab", "Enter")
	s.waitGone("nodes[1]") // the shell has the terminal
	pod := kubectl(t, "-n", ns, "get", "pods", "-l", "app.kubernetes.io/managed-by=kscope-debug", "-o", "jsonpath={.items[*].metadata.name}")
	if !strings.HasPrefix(pod, "node-debugger-kwok-node-0-") || strings.Contains(pod, " ") {
		t.Fatalf("debug pods in %s: %q, want one node-debugger-kwok-node-0-xxxxx", ns, pod)
	}
	spec := kubectl(t, "-n", ns, "get", "pod", pod, "-o",
		"jsonpath={.spec.nodeName} {.spec.hostPID} {.spec.hostNetwork} {.spec.containers[0].name} {.spec.containers[0].image} {.spec.containers[0].volumeMounts[0].mountPath}")
	if spec != "kwok-node-0 true true debugger busybox /host" {
		t.Errorf("the node's debug pod: %q, want on kwok-node-0, host PID and network, debugger busybox, /host", spec)
	}
	debugShell(t, s, ns, pod)
	s.waitFor("nodes[1]", "(debugger) ended")
}

// TestUIDebugPod: shift-b on a running pod (one container: the target) asks the image and the profile,
// confirms, then adds an ephemeral container through pods/ephemeralcontainers, waits for it to run (the
// devcluster's kwok stage reports it) and runs a shell in it.
func TestUIDebugPod(t *testing.T) {
	parallel(t)
	if data, err := os.ReadFile(filepath.Join(env.cache, "state", "kwok.yaml")); err != nil ||
		!strings.Contains(string(data), "pod-ephemeral-containers-running") {
		t.Skip("the devcluster's kwok predates its ephemeral-containers stage (no ephemeral container ever runs): `devcluster up` restarts kwok with it")
	}
	ns := testNamespace(t)
	pod := streamsPod(t, ns)
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", pod, "Running")
	s.keys("B")
	s.waitFor("image of the debug container for pod " + ns + "/" + pod + ": busybox")
	s.keys("Enter")
	s.waitFor("debug profile", "netadmin")
	s.keys("Enter")
	s.waitFor("Debug pod " + pod + "?")
	s.keys("Tab", "Enter")
	s.waitGone("pods(" + ns + ")[1]") // the shell has the terminal
	got := kubectl(t, "-n", ns, "get", "pod", pod, "-o",
		"jsonpath={.spec.ephemeralContainers[0].targetContainerName} {.spec.ephemeralContainers[0].image} "+
			"{.status.ephemeralContainerStatuses[0].name} {.status.ephemeralContainerStatuses[0].state.running.startedAt}")
	f := strings.Fields(got)
	if len(f) != 4 || f[0] != "streams-e2e" || f[1] != "busybox" || !strings.HasPrefix(f[2], "debugger-") {
		t.Fatalf("the pod's ephemeral container and its status: %q, want target streams-e2e, busybox, debugger-xxxxx running", got)
	}
	debugShell(t, s, ns, pod)
	s.waitFor("pods("+ns+")[1]", "("+f[2]+") ended")
}
