//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// applyFineAndStuck creates two Deployments in ns: fine (one nginx pod, Running on a kwok node, Available) and
// stuck (one pod that no node can take: Pending, the Deployment never Available).
func applyFineAndStuck(t *testing.T, ns string) {
	t.Helper()
	deployment := func(name, nodeSelector string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ` + name + `, namespace: ` + ns + `}
spec:
  replicas: 1
  selector: {matchLabels: {app: ` + name + `}}
  template:
    metadata: {labels: {app: ` + name + `}}
    spec:
      ` + nodeSelector + `
      containers: [{name: web, image: nginx:1.27}]
`
	}
	applyYAML(t, deployment("fine", "nodeSelector: {}")+"---\n"+deployment("stuck", `nodeSelector: {kscope-e2e/no-such-node: "true"}`))
}

// TestUIFaultFilter: ctrl-z on the pods table keeps only the pod that is not healthy (Pending), by the
// server's cells, and says so; again shows both. On :deploy, ctrl-z turns HEALTH on and keeps the
// Deployment that is not Available (kstatus InProgress).
func TestUIFaultFilter(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	applyFineAndStuck(t, ns)
	s := startUI(t, "-n", ns, "pods")
	s.waitUntil("fine's pod Running, stuck's Pending", func(scr string) bool {
		return strings.Contains(scr, "pods("+ns+")[2]") && strings.Contains(lineWith(scr, "fine-"), "Running") &&
			strings.Contains(lineWith(scr, "fine-"), "1/1") && strings.Contains(lineWith(scr, "stuck-"), "Pending")
	})
	s.keys("C-z")
	s.waitUntil("only stuck's pod, the filter said", func(scr string) bool {
		return strings.Contains(scr, "pods("+ns+")[1]") && strings.Contains(scr, "<faults>") &&
			strings.Contains(scr, "faults: 1 of 2") && strings.Contains(scr, "stuck-") && !strings.Contains(scr, "fine-")
	})
	s.keys("C-z")
	s.waitUntil("both pods again", func(scr string) bool {
		return strings.Contains(scr, "pods("+ns+")[2]") && !strings.Contains(scr, "<faults>")
	})

	s.typeText(":deploy")
	s.keys("Enter")
	s.waitFor("deployments("+ns+")[2]", "fine", "stuck")
	s.keys("C-z")
	s.waitUntil("only stuck, HEALTH on for the filter", func(scr string) bool {
		return strings.Contains(scr, "deployments("+ns+")[1]") && headerHas(scr, "HEALTH") &&
			strings.Contains(lineWith(scr, "stuck "), "InProgress") && !strings.Contains(scr, "fine ") &&
			strings.Contains(scr, "HEALTH on for the filter")
	})
	s.keys("C-z")
	s.waitUntil("both, HEALTH gone with the filter", func(scr string) bool {
		return strings.Contains(scr, "deployments("+ns+")[2]") && !headerHas(scr, "HEALTH")
	})
}

// TestUIStartsWhereLeftOff: a session that switches to a namespace and opens :deploy, then quits, is where the
// next kscope started without a resource or -n opens (kscope's folder of the test's own: its state.yaml); the
// namespaces switched to are its favourites (a missing one dropped), numbered in the header, kept for the
// next session, whose keys 1 and 2 switch to them.
func TestUIStartsWhereLeftOff(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	applyFineAndStuck(t, ns)
	dir := filepath.Join(t.TempDir(), "kscope")
	environ := []string{"KSCOPE_CONFIG_DIR=" + dir}
	const after = "; echo KSCOPE-EXIT=$?; sleep 600"

	s := startTmuxEnv(t, environ, env.kscope, after, "pods")
	s.waitFor("pods(")
	s.typeText(":ns " + ns)
	s.keys("Enter")
	s.waitFor("pods("+ns+")", "(0 all 1 "+ns+" 2 default)")
	// A namespace the server does not have is said, and dropped from the favourites.
	missing := ns + "-none"
	s.typeText(":ns " + missing)
	s.keys("Enter")
	s.waitFor(`namespace "` + missing + `" not found`)
	s.waitFor("Namespace: " + missing + " (0 all 1 " + ns + " 2 default)")
	s.typeText(":ns " + ns)
	s.keys("Enter")
	s.typeText(":deploy")
	s.keys("Enter")
	s.waitFor("deployments("+ns+")[2]", "fine", "stuck")
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
	state, err := os.ReadFile(filepath.Join(dir, "state.yaml"))
	if err != nil || !strings.Contains(string(state), "deployments.apps") || !strings.Contains(string(state), ns) {
		t.Fatalf("state.yaml: %q (%v), want deployments.apps in %s", state, err, ns)
	}

	// The next session starts there, with the favourites: 2 switches to default, 1 back.
	again := startTmuxEnv(t, environ, env.kscope, after)
	again.waitFor("deployments("+ns+")[2]", "fine", "stuck", "(0 all 1 "+ns+" 2 default)")
	again.typeText("2")
	again.waitFor("deployments(default)", "Namespace: default (0 all 1 "+ns+" 2 default)")
	again.typeText("1")
	again.waitFor("deployments("+ns+")[2]", "fine", "stuck")
	again.typeText("q")
	again.waitFor("KSCOPE-EXIT=0")
}
