//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// TestUIEnterDrillsDown: on the real apiserver, Enter on a deployment opens its pods (its selector: web's
// two, not api's), esc comes back to the deployments, Enter on a service opens the pods it selects, and
// Enter on a node the pods scheduled there (one of web's); y still opens the YAML.
func TestUIEnterDrillsDown(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx", "--replicas=2")
	kubectl(t, "-n", ns, "create", "deployment", "api", "--image=nginx")
	kubectl(t, "-n", ns, "expose", "deployment", "web", "--port=80")
	kubectl(t, "-n", ns, "wait", "--for=condition=Available", "--timeout=60s", "deployment/web", "deployment/api")
	webPods := strings.Fields(kubectl(t, "-n", ns, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].metadata.name}"))
	node := kubectl(t, "-n", ns, "get", "pods", webPods[0], "-o", "jsonpath={.spec.nodeName}")
	if len(webPods) != 2 || node == "" {
		t.Fatalf("web's pods %q on node %q", webPods, node)
	}

	s := startUI(t, "-n", ns, "deployments")
	s.waitFor("deployments("+ns+")[2]", "api ", "web ")
	s.typeText("/^web")
	s.keys("Enter")
	s.waitFor("deployments(" + ns + ")[1]")
	s.keys("Enter")
	scr := s.waitFor("pods(deployment web)[2]", webPods[0], webPods[1])
	if strings.Contains(scr, "api-") {
		t.Errorf("the pods of web list api's:\n%s", scr)
	}
	s.keys("Escape")
	s.waitFor("deployments(" + ns + ")[1]")
	s.keys("y")
	s.waitFor("kind: Deployment", "name: web")
	s.keys("Escape")
	s.waitFor("deployments(" + ns + ")[1]") // (before ':', which right after esc would read as alt-:)

	s.typeText(":svc")
	s.keys("Enter")
	s.waitFor("services(" + ns + ")[1]")
	s.keys("Enter")
	s.waitFor("pods(service web)[2]", webPods[0], webPods[1])

	s.typeText(":nodes")
	s.keys("Enter")
	s.waitFor("nodes[", node)
	s.typeText("/^" + node + "$")
	s.keys("Enter")
	s.waitFor("nodes[1]")
	s.keys("Enter")
	s.waitFor("pods(node "+node+")[", webPods[0]) // (the other may run on another node)
}
