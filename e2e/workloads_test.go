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
	s.keys("T")
	s.waitFor("Trigger cronjob nightly?")
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
	s.keys("I")
	s.waitFor("image of container nginx of deployments web: nginx")
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
	pod = strings.TrimSpace(kubectl(t, "-n", ns, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[0].metadata.name}"))

	s.typeText(":pods")
	s.keys("Enter")
	s.waitFor("pods("+ns+")", pod)
	s.typeText("/" + pod)
	s.keys("Enter")
	s.waitFor("pods(" + ns + ")[1]")
	s.keys("C-k")
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
