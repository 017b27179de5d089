//go:build e2e

package e2e

import (
	"encoding/base64"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReliabilitySecretMaskedInYAML: a Secret created with `kubectl apply` (so its last-applied-configuration
// annotation repeats the data) opens as YAML with every value masked: neither the base64 data nor the
// plain text appear anywhere on the screen until the user reveals them with x.
func TestReliabilitySecretMaskedInYAML(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	plain := "hunter2-" + randomSuffix()
	encoded := base64.StdEncoding.EncodeToString([]byte(plain))
	manifest := "apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: " + ns + "}\n" +
		"stringData: {password: " + plain + "}\ndata: {token: " + encoded + "}\n"
	apply := exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "apply", "-f", "-")
	apply.Stdin = strings.NewReader(manifest)
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("kubectl apply: %v\n%s", err, out)
	}
	s := startUI(t, "-n", ns, "secrets")
	s.waitFor("secrets("+ns+")[1]", "creds")
	s.typeText("/creds")
	s.keys("Enter")
	s.waitFor("</creds>")
	s.keys("Enter")
	scr := s.waitFor("kind: Secret", "password: '********'", "data masked")
	for _, secret := range []string{plain, encoded} {
		if strings.Contains(scr, secret) {
			t.Errorf("the YAML view shows %q while the data is masked:\n%s", secret, scr)
		}
	}
	if !strings.Contains(kubectl(t, "-n", ns, "get", "secret", "creds", "-o", "yaml"), "last-applied-configuration") {
		t.Fatal("the Secret has no last-applied-configuration annotation: the test does not test it")
	}
	s.typeText("x")
	s.waitFor("data revealed", encoded)
	s.typeText("x")
	scr = s.waitFor("data masked")
	if strings.Contains(scr, encoded) || strings.Contains(scr, plain) {
		t.Errorf("masked again, yet the screen shows the data:\n%s", scr)
	}
}

// TestReliabilityReadOnlySendsNoWrite: bin/kscope --readonly as the audited tester (an admin): ctrl-d in a
// table and in a YAML view, and e, s, r on a deployment, are refused on screen, and the audit log holds not one create, update, patch or
// delete request of tester's kscope during the session (reads do appear there: the log is being written).
func TestReliabilityReadOnlySendsNoWrite(t *testing.T) {
	serial(t, "counts the tester's kscope requests in the audit log")
	ns := testNamespace(t)
	seedPods(t, ns)
	from := time.Now()
	s := startUI(t, "--context", "tester", "--readonly", "-n", ns, "pods")
	s.waitFor("pods("+ns+")[3]", "READ-ONLY", "synced")
	s.typeText("/solo")
	s.keys("Enter")
	s.waitFor("</solo>")
	s.keys("C-d")
	s.waitFor("read-only mode: refusing to delete pods " + ns + "/solo")
	s.keys("y") // YAML of solo (enter: its containers)
	s.waitFor("name: solo")
	s.keys("C-d")
	s.waitFor("read-only mode: refusing to delete pods " + ns + "/solo")
	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[1] </solo>") // (a key right after Escape would read as alt-key)
	s.typeText(":deploy")
	s.keys("Enter")
	s.waitFor("deployments("+ns+")[1]", "web")
	s.keys("C-d")
	s.waitFor("read-only mode: refusing to delete deployments " + ns + "/web")
	for _, verb := range []struct{ key, name string }{{"e", "edit"}, {"s", "scale"}, {"r", "restart"}} {
		s.typeText(verb.key)
		s.waitFor("read-only mode: refusing to " + verb.name + " deployments " + ns + "/web")
	}
	s.typeText(":ns")
	s.keys("Enter")
	s.waitFor("namespaces[", "kube-system") // a row to act on
	s.keys("C-d")
	s.waitFor("read-only mode: refusing to delete namespaces")
	s.keys("C-c")
	s.waitFor("KSCOPE-EXIT=0") // kscope can send nothing more
	to := time.Now()
	waitAuditLogged(t, "tester")

	reqs := auditRequests(t, "tester", "kscope", from, to)
	var writes []auditEvent
	for _, ev := range reqs {
		switch ev.Verb {
		case "create", "update", "patch", "delete", "deletecollection":
			writes = append(writes, ev)
		}
	}
	t.Logf("tester's kscope requests: %d (%s); writes: %d", len(reqs), describeRequests(reqs), len(writes))
	if len(reqs) == 0 {
		t.Fatal("no request of tester's kscope in the audit log: the count proves nothing")
	}
	if len(writes) > 0 {
		t.Errorf("read-only kscope sent %d write requests: %s", len(writes), describeRequests(writes))
	}
	if out := kubectl(t, "-n", ns, "get", "pod", "solo", "-o", "jsonpath={.metadata.deletionTimestamp}"); out != "" {
		t.Errorf("pod solo is being deleted")
	}
}

// waitAuditLogged makes a marker request as user now (kubectl get of a ConfigMap with a unique name) and
// waits up to 60 s until it is in the audit log: the requests the server answered before it are then logged
// too, so a count of what a client that has exited sent is complete.
func waitAuditLogged(t *testing.T, user string) {
	t.Helper()
	marker, sent := "audit-marker-"+randomSuffix(), time.Now()
	runKubectl(t, "--context", user, "-n", "default", "get", "configmap", marker, "--ignore-not-found")
	waitForSeen(t, 60*time.Second, "the audit log holds "+user+"'s get of configmap "+marker, func() (bool, string) {
		reqs := auditRequests(t, user, "kubectl", sent.Add(-time.Second), time.Now().Add(time.Hour))
		return slices.ContainsFunc(reqs, func(ev auditEvent) bool { return strings.Contains(ev.URI, marker) }),
			fmt.Sprintf("%d requests of %s's kubectl since then: %s", len(reqs), user, describeRequests(reqs))
	})
}
