//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestUIWorkloadVerbs: on the real apiserver, shift-t on a cronjob creates a Job owned by it (annotated as
// kubectl's manual runs are), s suspends it and then resumes it, shift-i sets the image of the cronjob's
// container and of a deployment's, and ctrl-k kills a pod at once (the deployment replaces it).
func TestUIWorkloadVerbs(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "cronjob", "nightly", "--image=busybox", "--schedule=0 3 * * *", "--", "true")
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	kubectl(t, "-n", ns, "wait", "--for=condition=Available", "--timeout=60s", "deployment/web")
	pod := strings.TrimSpace(kubectl(t, "-n", ns, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[0].metadata.name}"))

	s := startUI(t, "-n", ns, "cronjobs")
	s.waitFor("cronjobs("+ns+")[1]", "nightly")
	s.typeUntilUID("T", "Trigger cronjob nightly?")
	s.keys("Tab", "Enter")
	s.waitFor("triggered cronjob " + ns + "/nightly: job nightly-manual-")
	owner := kubectl(t, "-n", ns, "get", "jobs", "-o",
		`jsonpath={range .items[*]}{.metadata.ownerReferences[0].name}/{.metadata.annotations.cronjob\.kubernetes\.io/instantiate}{end}`)
	if owner != "nightly/manual" {
		t.Errorf("the triggered job: owner/instantiate %q, want nightly/manual", owner)
	}

	s.keys("s")
	s.waitFor("Suspend cronjob nightly?")
	s.keys("Tab", "Enter")
	s.waitFor("suspended cronjob " + ns + "/nightly")
	if got := kubectl(t, "-n", ns, "get", "cronjob", "nightly", "-o", "jsonpath={.spec.suspend}"); got != "true" {
		t.Errorf("after suspend: spec.suspend %q", got)
	}
	s.keys("s")
	s.waitFor("Resume cronjob nightly?")
	s.keys("Tab", "Enter")
	s.waitFor("resumed cronjob " + ns + "/nightly")
	if got := kubectl(t, "-n", ns, "get", "cronjob", "nightly", "-o", "jsonpath={.spec.suspend}"); got != "false" {
		t.Errorf("after resume: spec.suspend %q", got)
	}

	s.keys("I")
	s.waitFor("image of container nightly of cronjobs nightly: busybox")
	s.keys("C-u")
	s.typeText("busybox:1.37")
	s.keys("Enter")
	s.waitFor("Set the image of container nightly")
	s.keys("Tab", "Enter")
	s.waitFor("to busybox:1.37")
	if got := kubectl(t, "-n", ns, "get", "cronjob", "nightly", "-o",
		"jsonpath={.spec.jobTemplate.spec.template.spec.containers[0].image}"); got != "busybox:1.37" {
		t.Errorf("the cronjob's image: %q", got)
	}

	s.typeText(":deploy")
	s.keys("Enter")
	s.waitFor("deployments("+ns+")[1]", "web")
	s.typeUntilUID("I", "image of container nginx of deployments web: nginx")
	s.keys("C-u")
	s.typeText("nginx:1.27")
	s.keys("Enter")
	s.waitFor("Set the image of container nginx")
	s.keys("Tab", "Enter")
	s.waitFor("to nginx:1.27")
	if got := kubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"); got != "nginx:1.27" {
		t.Errorf("the deployment's image: %q", got)
	}
	kubectl(t, "-n", ns, "rollout", "status", "--timeout=60s", "deployment/web")
	// A pod of the new template: an old one may still be terminating after the rollout.
	pod = strings.Fields(waitKubectl(t, "web-", "-n", ns, "get", "pods", "-l", "app=web", "-o",
		`jsonpath={range .items[?(@.spec.containers[0].image=="nginx:1.27")]}{.metadata.name}{" "}{end}`))[0]

	s.typeText(":pods")
	s.keys("Enter")
	s.waitFor("pods("+ns+")", pod)
	s.typeText("/" + pod)
	s.keys("Enter")
	s.waitFor("pods(" + ns + ")[1]")
	s.keysUntilUID("C-k", "Kill pod "+pod+"?")
	s.waitFor("Kill pod "+pod+"?", "grace period 0")
	s.keys("Tab", "Enter")
	s.waitFor("killed pod " + ns + "/" + pod)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		out := kubectl(t, "-n", ns, "get", "pods", "--field-selector", "metadata.name="+pod, "-o", "name")
		if strings.TrimSpace(out) == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pod %s still there 30s after the kill: %s", pod, out)
		}
	}
}

// TestUILabelsAndAnnotations: on the real apiserver, shift-l sets and removes a deployment's labels
// (kubectl label's arguments) after a confirmation listing the changes, then sets an annotation with spaces;
// with two configmaps marked, one change labels both.
func TestUILabelsAndAnnotations(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx")
	kubectl(t, "-n", ns, "label", "deployment", "web", "old=yes")
	kubectl(t, "-n", ns, "create", "configmap", "cm-a", "--from-literal=k=v")
	kubectl(t, "-n", ns, "create", "configmap", "cm-b", "--from-literal=k=v")

	s := startUI(t, "-n", ns, "deployments")
	s.waitFor("deployments("+ns+")[1]", "web")
	s.typeUntilUID("L", "change which of web")
	s.keys("Enter") // labels
	s.waitFor("labels of deployments web [app=web, old=yes]")
	s.typeText("tier=front old-")
	s.keys("Enter")
	s.waitFor("Change the labels of deployments web?", "+ tier=front", "- old (was yes)")
	s.keys("Tab", "Enter")
	s.waitFor("changed the labels of deployments " + ns + "/web")
	if got := kubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.metadata.labels}"); got != `{"app":"web","tier":"front"}` {
		t.Errorf("labels %s", got)
	}
	s.keys("L")
	s.waitFor("change which of web")
	s.keys("Down", "Enter") // annotations
	s.waitFor("annotations of deployments web")
	s.typeText(`kscope.dev/note="two words"`)
	s.keys("Enter")
	s.waitFor("+ kscope.dev/note=two words")
	s.keys("Tab", "Enter")
	s.waitFor("changed the annotations of deployments " + ns + "/web")
	if got := kubectl(t, "-n", ns, "get", "deployment", "web", "-o", `jsonpath={.metadata.annotations.kscope\.dev/note}`); got != "two words" {
		t.Errorf("annotation %q", got)
	}

	s.typeText(":cm")
	s.keys("Enter")
	s.waitFor("configmaps("+ns+")", "cm-a", "cm-b")
	s.typeText("/^cm-")
	s.keys("Enter")
	s.waitFor("configmaps(" + ns + ")[2]")
	s.keys("*")
	s.waitFor("2 marked")
	s.keysUntilUID("L", "change which of 2 configmaps")
	s.keys("Enter")
	s.waitFor("labels of 2 configmaps")
	s.typeText("batch=one")
	s.keys("Enter")
	s.waitFor("Change the labels of 2 configmaps?", "+ batch=one")
	s.keys("Tab", "Enter")
	s.waitFor("changed the labels of 2 of 2 configmaps")
	if got := kubectl(t, "-n", ns, "get", "configmaps", "-l", "batch=one", "-o", "name"); strings.Count(got, "configmap/") != 2 {
		t.Errorf("configmaps labelled batch=one: %q", got)
	}
}
