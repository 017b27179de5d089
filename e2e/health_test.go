//go:build e2e

package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// TestHealthRollout: a Deployment whose new pods must stay ready for 15 s before they count as available
// shows, in its YAML view's header, InProgress with its Progressing condition while it rolls out, then
// Current; its tree shows the same.
func TestHealthRollout(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	applySlowDeployment(t, ns)
	s := startUI(t, "-n", ns, "deploy")
	s.waitFor("deployments("+ns+")[1]", "slow")
	s.typeText("y")
	s.waitFor("health InProgress", "TYPE", "LAST TRANSITION", "Progressing")
	scr := s.waitFor("health Current", "Available", "MinimumReplicasAvailable")
	if !strings.Contains(lineWith(scr, "Available "), "True") {
		t.Errorf("the Available condition is not True once Current:\n%s", scr)
	}
	// A second rollout: InProgress again, then Current.
	kubectl(t, "-n", ns, "set", "image", "deployment/slow", "web=nginx:1.28")
	s.waitFor("health InProgress")
	s.waitFor("health Current")
	s.typeText("H") // hides the conditions
	s.waitFor("conditions hidden: shift-h")
	s.typeText("t")
	s.waitUntil("the tree's deployment Current", func(scr string) bool {
		return strings.Contains(scr, "kinds listed in") && strings.Contains(lineWith(scr, "Deployment slow"), "Current")
	})
}

// TestHealthFailedJob: a Job whose pod can never be scheduled (a node selector no node matches) and whose
// deadline passes is Failed, with its Failed condition (DeadlineExceeded).
func TestHealthFailedJob(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	applyDoomedJob(t, ns)
	s := startUI(t, "-n", ns, "jobs")
	s.waitFor("jobs("+ns+")[1]", "doomed")
	s.typeText("y")
	scr := s.waitFor("health Failed", "DeadlineExceeded")
	if !strings.Contains(lineWith(scr, "DeadlineExceeded"), "True") {
		t.Errorf("the Failed condition is not shown True:\n%s", scr)
	}
	s.typeText("d") // the describe view's header too
	s.waitFor("describe jobs", "health Failed", "DeadlineExceeded")
}

// TestHealthCustomResourceNotReady: a custom resource whose status has Ready=False is InProgress, as kstatus
// says for a Ready condition that is False, with the condition's reason and message; once Ready=True it is
// Current.
func TestHealthCustomResourceNotReady(t *testing.T) {
	serial(t, "creates a CRD (cluster-wide discovery)")
	ns := testNamespace(t)
	group := gadgetCRD(t)
	applyYAML(t, "apiVersion: "+group+"/v1\nkind: Gadget\nmetadata: {name: g1, namespace: "+ns+"}\n")
	status := func(ready, reason, message string) {
		kubectl(t, "-n", ns, "patch", "gadgets."+group, "g1", "--subresource=status", "--type=merge", "-p",
			`{"status":{"conditions":[{"type":"Ready","status":"`+ready+`","reason":"`+reason+`","message":"`+message+
				`","lastTransitionTime":"2026-12-01T10:00:00Z"}]}}`)
	}
	status("False", "WaitingForDatabase", "the database is not reachable")
	s := startUI(t, "-n", ns, "gadgets."+group)
	s.waitFor("g1")
	s.typeText("y")
	scr := s.waitFor("health InProgress", "the database is not reachable", "WaitingForDatabase")
	if !strings.Contains(lineWith(scr, "WaitingForDatabase"), "Ready ") {
		t.Errorf("the Ready condition's line is not shown:\n%s", scr)
	}
	status("True", "Reconciled", "all good")
	s.waitFor("health Current", "Reconciled")
}

// TestHealthTerminating: a ConfigMap held by a finalizer after its deletion is Terminating in its YAML view
// and in its tree; removing the finalizer lets it go (NotFound).
func TestHealthTerminating(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	applyYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  namespace: "+ns+
		"\n  finalizers: [kscope.example.com/hold]\ndata: {a: b}\n")
	release := func() {
		_ = exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "-n", ns, "patch", "configmap", "held",
			"--type=merge", "-p", `{"metadata":{"finalizers":null}}`).Run()
	}
	t.Cleanup(release)
	kubectl(t, "-n", ns, "delete", "configmap", "held", "--wait=false")
	s := startUI(t, "-n", ns, "cm")
	s.waitFor("configmaps("+ns+")", "held")
	s.typeText("/^held$")
	s.keys("Enter")
	s.waitFor("</^held$>")
	s.typeText("y")
	s.waitFor("health Terminating", "Resource scheduled for deletion", "deletionTimestamp:")
	s.typeText("t")
	s.waitUntil("the tree's ConfigMap Terminating", func(scr string) bool {
		return strings.Contains(lineWith(scr, "ConfigMap held"), "Terminating")
	})
	s.keys("Enter") // the node's YAML
	s.waitFor("health Terminating")
	release()
	s.waitFor("health NotFound", "(deleted)")
}

// applySlowDeployment creates Deployment slow in ns: one nginx pod that must stay ready for 15 s before it
// counts as available, so a rollout reads InProgress long enough to be seen.
func applySlowDeployment(t *testing.T, ns string) {
	t.Helper()
	applyYAML(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: slow, namespace: `+ns+`}
spec:
  replicas: 1
  minReadySeconds: 15
  selector: {matchLabels: {app: slow}}
  template:
    metadata: {labels: {app: slow}}
    spec: {containers: [{name: web, image: nginx:1.27}]}
`)
}

// applyDoomedJob creates Job doomed in ns: its pod can never be scheduled (a node selector no node matches)
// and its 2 s deadline passes, so it ends Failed (DeadlineExceeded).
func applyDoomedJob(t *testing.T, ns string) {
	t.Helper()
	applyYAML(t, `apiVersion: batch/v1
kind: Job
metadata: {name: doomed, namespace: `+ns+`}
spec:
  activeDeadlineSeconds: 2
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      nodeSelector: {kscope-e2e/no-such-node: "true"}
      containers: [{name: c, image: busybox}]
`)
}
