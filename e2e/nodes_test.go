//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// drainNode adds a kwok node of t's own (labelled for a nodeSelector) and deletes it when t ends: draining
// or cordoning one of the devcluster's nodes would move other tests' pods.
func drainNode(t *testing.T) string {
	t.Helper()
	name := "e2e-drain-" + randomSuffix()
	applyYAML(t, fmt.Sprintf(`apiVersion: v1
kind: Node
metadata:
  name: %[1]s
  annotations:
    kwok.x-k8s.io/node: fake
  labels:
    type: kwok
    kscope-e2e-node: %[1]s
`, name))
	t.Cleanup(func() { kubectl(t, "delete", "node", name, "--wait=false") })
	kubectl(t, "wait", "--for=condition=Ready", "--timeout=60s", "node/"+name)
	return name
}

// TestUINodeCordonUncordonDrain: on the real apiserver, as the audited user tester, shift-c cordons a node
// (SchedulingDisabled in its row), u uncordons it, r drains it: kubectl's drain refuses a pod without a
// controller (one line, nothing evicted), then with Force ticked in the dialog the confirmation lists the
// pods and the drain evicts them through the Eviction API (the audit log's pods/eviction creates); the
// deployment's new pods stay Pending on a cordoned node. With --readonly, the same keys are refused and the
// audit log holds no write.
func TestUINodeCordonUncordonDrain(t *testing.T) {
	serial(t, "adds a node to the cluster; counts tester's requests in the audit log")
	ns := testNamespace(t)
	node := drainNode(t)
	applyYAML(t, fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: %[1]s}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {kscope-e2e-node: %[2]s}
      containers: [{name: web, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: bare, namespace: %[1]s}
spec:
  nodeSelector: {kscope-e2e-node: %[2]s}
  containers: [{name: bare, image: nginx}]
`, ns, node))
	kubectl(t, "-n", ns, "wait", "--for=condition=Available", "--timeout=90s", "deployment/web")
	kubectl(t, "-n", ns, "wait", "--for=condition=Ready", "--timeout=90s", "pod/bare")
	onNode := func() []string {
		return strings.Fields(kubectl(t, "-n", ns, "get", "pods", "--field-selector", "spec.nodeName="+node,
			"-o", "jsonpath={.items[*].metadata.name}"))
	}
	before := onNode()
	if len(before) != 3 {
		t.Fatalf("pods on %s: %q, want web's two and bare", node, before)
	}

	from := time.Now()
	s := startUI(t, "--context", "tester", "nodes")
	s.waitFor("nodes[", node)
	s.typeText("/^" + node + "$")
	s.keys("Enter")
	s.waitFor("nodes[1]")
	s.typeUntilUID("C", "Cordon node "+node+"?")
	s.keys("Tab", "Enter")
	s.waitFor("cordoned node "+node, "SchedulingDisabled")
	if got := kubectl(t, "get", "node", node, "-o", "jsonpath={.spec.unschedulable}"); got != "true" {
		t.Fatalf("after cordon: spec.unschedulable %q", got)
	}
	s.keys("u")
	s.waitFor("Uncordon node " + node + "?")
	s.keys("Tab", "Enter")
	s.waitFor("uncordoned node " + node)
	s.waitGone("SchedulingDisabled")

	s.keys("r")
	s.waitFor("Drain node "+node, "Grace period", "Ignore DaemonSets")
	s.keys("Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Enter") // the five fields, Cancel: Drain
	s.waitFor("cannot delete Pods that declare no controller")
	if got := onNode(); !slices.Equal(got, before) {
		t.Fatalf("a refused drain changed the pods on %s: %q, was %q", node, got, before)
	}

	s.keys("r")
	s.waitFor("Grace period")
	s.keys("Tab", "Tab", "Tab", "Tab", "Space", "Tab", "Tab", "Enter") // Force ticked, then Drain
	s.waitFor("Drain node "+node+"?", "3 pods are evicted")
	s.keys("Tab", "Enter")
	s.waitFor("drained node " + node + ": cordoned, 3 pods evicted")
	if got := onNode(); len(got) != 0 {
		t.Errorf("pods still on %s after the drain: %q", node, got)
	}
	pending := kubectl(t, "-n", ns, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].status.phase}")
	if phases := strings.Fields(pending); len(phases) != 2 || slices.ContainsFunc(phases, func(p string) bool { return p != "Pending" }) {
		t.Errorf("web's replacement pods: %q, want two Pending (the node is cordoned)", pending)
	}
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
	waitAuditLogged(t, "tester")
	evictions := 0
	for _, ev := range auditRequests(t, "tester", "kscope", from, time.Now()) {
		if ev.Verb == "create" && ev.ObjectRef != nil && ev.ObjectRef.Resource == "pods" && ev.ObjectRef.Subresource == "eviction" &&
			ev.ResponseStatus != nil && ev.ResponseStatus.Code < 300 {
			evictions++
		}
	}
	if evictions != 3 {
		t.Errorf("the audit log holds %d evictions by kscope, want 3", evictions)
	}

	kubectl(t, "uncordon", node)
	from = time.Now()
	ro := startUI(t, "--readonly", "--context", "tester", "nodes")
	ro.waitFor("nodes[", node, "READ-ONLY")
	ro.typeText("/^" + node + "$")
	ro.keys("Enter")
	ro.waitFor("nodes[1]")
	for k, verb := range map[string]string{"C": "cordon", "u": "uncordon", "r": "drain"} {
		ro.keys(k)
		if scr := ro.waitFor("read-only mode: refusing to " + verb + " nodes " + node); strings.Contains(scr, "Grace period") {
			t.Errorf("read-only mode opened the drain dialog:\n%s", scr)
		}
	}
	ro.typeText("q")
	ro.waitFor("KSCOPE-EXIT=0")
	if reqs := noWritesBy(t, "tester", from); len(reqs) == 0 {
		t.Fatal("no request of tester in the audit log: the check proves nothing")
	}
}
