//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// debugAttached waits for kscope's line, on the terminal it handed over, saying it attached to the debug
// container of ns/pod (its stdin and terminal, as kubectl debug -it), detaches with ctrl-p ctrl-q and waits
// for kscope's line saying so: the attachment held until then (a refused one says so and runs a shell).
func debugAttached(t *testing.T, s *tmuxUI, ns, pod string) {
	t.Helper()
	s.waitFor("kscope: attached to", "detach with ctrl-p ctrl-q.")
	s.keys("C-p", "C-q")
	s.waitFor("detached from " + ns + "/" + pod + " (")
	if scr := s.screen(); strings.Contains(scr, "attach refused") {
		t.Errorf("the attachment was refused:\n%s", scr)
	}
}

// TestUIDebugNode: shift-b on a node asks the image (busybox) and the profile (general), confirms, then
// creates kubectl debug node/N's pod in the namespace shown (node-debugger-N-xxxxx on the node, in the
// host's PID and network namespaces, the host's root at /host) and attaches to it once kwok runs it.
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
	s.waitFor("kscope: attached to") // the attachment has the terminal: the pod exists and runs
	pod := kubectl(t, "-n", ns, "get", "pods", "-l", "app.kubernetes.io/managed-by=kscope-debug", "-o", "jsonpath={.items[*].metadata.name}")
	if !strings.HasPrefix(pod, "node-debugger-kwok-node-0-") || strings.Contains(pod, " ") {
		t.Fatalf("debug pods in %s: %q, want one node-debugger-kwok-node-0-xxxxx", ns, pod)
	}
	spec := kubectl(t, "-n", ns, "get", "pod", pod, "-o",
		"jsonpath={.spec.nodeName} {.spec.hostPID} {.spec.hostNetwork} {.spec.containers[0].name} {.spec.containers[0].image} {.spec.containers[0].volumeMounts[0].mountPath}")
	if spec != "kwok-node-0 true true debugger busybox /host" {
		t.Errorf("the node's debug pod: %q, want on kwok-node-0, host PID and network, debugger busybox, /host", spec)
	}
	debugAttached(t, s, ns, pod)
	s.waitFor("nodes[1]", "(debugger); its process runs on")
}

// TestUIDebugPod: shift-b on a running pod (one container: the target) asks the image and the profile,
// confirms, then adds an ephemeral container through pods/ephemeralcontainers, waits for it to run (the
// devcluster's kwok stage reports it) and attaches to it.
func TestUIDebugPod(t *testing.T) {
	parallel(t)
	if data, err := os.ReadFile(filepath.Join(env.cache, "state", "kwok.yaml")); err != nil ||
		!strings.Contains(string(data), "pod-ephemeral-containers-running") {
		t.Fatal("the devcluster's kwok runs without its ephemeral-containers stage (no ephemeral container would ever run): `devcluster up` restarts kwok with it")
	}
	ns := testNamespace(t)
	pod := streamsPod(t, ns)
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", pod, "Running")
	s.typeUntilUID("B", "image of the debug container for pod "+ns+"/"+pod+": busybox")
	s.keys("Enter")
	s.waitFor("debug profile", "netadmin")
	s.keys("Enter")
	s.waitFor("Debug pod " + pod + "?")
	s.keys("Tab", "Enter")
	// The attachment has the terminal: the ephemeral container was added and its status says it runs.
	s.waitFor("kscope: attached to")
	got := kubectl(t, "-n", ns, "get", "pod", pod, "-o",
		"jsonpath={.spec.ephemeralContainers[0].targetContainerName} {.spec.ephemeralContainers[0].image} "+
			"{.status.ephemeralContainerStatuses[0].name} {.status.ephemeralContainerStatuses[0].state.running.startedAt}")
	f := strings.Fields(got)
	if len(f) != 4 || f[0] != "streams-e2e" || f[1] != "busybox" || !strings.HasPrefix(f[2], "debugger-") {
		t.Fatalf("the pod's ephemeral container and its status: %q, want target streams-e2e, busybox, debugger-xxxxx running", got)
	}
	debugAttached(t, s, ns, pod)
	s.waitFor("pods("+ns+")[1]", "("+f[2]+"); its process runs on")
}
