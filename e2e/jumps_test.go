//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestJumpsCustomResource: with a jumps.yaml in the session's config folder (one rule of it unusable: one
// line at start, the others work), Enter on a custom resource (a CRD of the test's own) opens exactly the configmaps labelled with its name, live (one labelled after it
// opened appears); esc comes back with the object selected. A rule whose field selector the server refuses
// opens a table that shows the server's line (on its status line, as any list the server refuses) and stops:
// the refused list is sent once, never retried (the test runs as the audited tester to count it).
func TestJumpsCustomResource(t *testing.T) {
	serial(t, "creates a CRD (cluster-wide discovery)")
	ns := testNamespace(t)
	group := gadgetCRD(t)
	applyYAML(t, "apiVersion: "+group+"/v1\nkind: Gadget\nmetadata: {name: g1, namespace: "+ns+"}\n---\n"+
		"apiVersion: "+group+"/v1\nkind: Gadget\nmetadata: {name: g2, namespace: "+ns+"}\n---\n"+
		labelledConfigMap(ns, "g1-a", "g1")+"---\n"+labelledConfigMap(ns, "g1-b", "g1")+"---\n"+
		labelledConfigMap(ns, "g2-a", "g2")+"---\n"+"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain, namespace: "+ns+"}\n")
	kubectl(t, "-n", ns, "create", "secret", "generic", "s1", "--from-literal=a=b")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "jumps.yaml"), `jumps:
  `+group+`/v1/gadgets:
    targetGVR: v1/configmaps
    labelSelector: "gadget={{.metadata.name}}"
  v1/secrets:
    targetGVR: v1/configmaps
    fieldSelector: "data.owner={{.metadata.name}}"
  v1/pods:
    labelSelector: "app={{.metadata.name}}"
`)
	environ := []string{"KSCOPE_CONFIG_DIR=" + dir, "K9S_CONFIG_DIR=" + filepath.Join(dir, "k9s")}
	from := time.Now()
	s := startTmuxEnv(t, environ, env.kscope, "; sleep 600", "--context", "tester", "-n", ns, "gadgets."+group)
	s.waitFor("gadgets("+ns+")[2]", "synced", "config: "+filepath.Join(dir, "jumps.yaml")+`: jump "v1/pods": needs a targetGVR`)
	s.typeText("/^g1$")
	s.keys("Enter")
	s.waitFor("gadgets(" + ns + ")[1]")
	s.keys("Enter")
	scr := s.waitFor("configmaps(gadget g1)[2]", "g1-a", "g1-b", "synced")
	for _, other := range []string{"g2-a", "plain", "kube-root-ca.crt"} {
		if strings.Contains(scr, other) {
			t.Errorf("the configmaps of g1 list %s:\n%s", other, scr)
		}
	}
	applyYAML(t, labelledConfigMap(ns, "g1-c", "g1"))
	s.waitFor("configmaps(gadget g1)[3]", "g1-c")
	s.keys("Escape")
	s.waitFor("gadgets(" + ns + ")[1]")
	s.keys("y")
	s.waitFor("kind: Gadget", "name: g1")
	s.keys("Escape")
	s.waitFor("gadgets(" + ns + ")[1]") // (before ':', which right after esc would read as alt-:)

	s.typeText(":secrets")
	s.keys("Enter")
	s.waitFor("secrets("+ns+")", "s1")
	s.typeText("/^s1$")
	s.keys("Enter")
	s.waitFor("secrets(" + ns + ")[1]")
	s.keys("Enter")
	s.waitFor("configmaps(secret s1)", `bad request: "data.owner" is not a known field selector`)
	// Some time with kscope running: back on the secrets, then a view that lists and syncs.
	s.keys("Escape")
	s.waitFor("secrets(" + ns + ")[1]")
	s.typeText(":configmaps")
	s.keys("Enter")
	s.waitFor("configmaps("+ns+")[", "g2-a", "synced")
	waitAuditLogged(t, "tester")
	var refused []auditEvent
	for _, ev := range auditRequests(t, "tester", "kscope", from, time.Now()) {
		if strings.Contains(ev.URI, "fieldSelector=data.owner") {
			refused = append(refused, ev)
		}
	}
	if len(refused) != 1 {
		t.Errorf("the refused list was sent %d times, want once: %s", len(refused), describeRequests(refused))
	}
}

// labelledConfigMap is a configmap of ns labelled gadget=gadget.
func labelledConfigMap(ns, name, gadget string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: " + ns +
		"\n  labels: {gadget: " + gadget + "}\ndata: {a: b}\n"
}
