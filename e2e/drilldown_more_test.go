//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// TestUIEnterCronJobJobs: on the real apiserver, Enter on a namespace (opened from the top with :namespaces)
// opens the resource viewed before, cronjobs, in that namespace; Enter on a cronjob opens the jobs it owns
// (a job made from it with kubectl create job --from, which names it in its ownerReferences; not a job of the
// same template made without it), live: a second job made from it joins the table; esc comes back.
func TestUIEnterCronJobJobs(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "cronjob", "nightly", "--image=busybox", "--schedule=0 3 * * *", "--", "true")
	kubectl(t, "-n", ns, "patch", "cronjob", "nightly", "-p", `{"spec":{"suspend":true}}`) // (only the jobs made here)
	kubectl(t, "-n", ns, "create", "job", "nightly-manual", "--from=cronjob/nightly")
	kubectl(t, "-n", ns, "create", "job", "nightly-lookalike", "--image=busybox", "--", "true")

	s := startUI(t, "-n", "default", "cronjobs")
	s.waitFor("cronjobs(default)")
	s.typeText(":namespaces")
	s.keys("Enter")
	s.waitFor("namespaces[", ns)
	s.typeText("/^" + ns + "$")
	s.keys("Enter")
	s.waitFor("namespaces[1]")
	s.keys("Enter")
	s.waitFor("cronjobs("+ns+")[1]", "nightly")

	s.keys("Enter")
	scr := s.waitFor("jobs(cronjob nightly)[1]", "nightly-manual")
	if strings.Contains(scr, "nightly-lookalike") {
		t.Errorf("the jobs of nightly list a job it does not own:\n%s", scr)
	}
	kubectl(t, "-n", ns, "create", "job", "nightly-again", "--from=cronjob/nightly")
	scr = s.waitFor("jobs(cronjob nightly)[2]", "nightly-manual", "nightly-again")
	if strings.Contains(scr, "nightly-lookalike") {
		t.Errorf("the jobs of nightly list a job it does not own:\n%s", scr)
	}
	s.keys("Escape")
	s.waitFor("cronjobs(" + ns + ")[1]")
	s.waitGone("jobs(cronjob")
}

// TestUIEnterPodContainers: Enter on a pod opens its containers (name, image, ready, state, restarts, ports,
// probes), live; l on one opens that container's logs without asking which (the pod has two); esc comes back
// to the containers, esc again to the pods with the pod still selected, and y still opens its YAML.
func TestUIEnterPodContainers(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	logsPod(t, ns) // two: api, metrics (the default container)

	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", "two")
	s.keys("Enter")
	scr := s.waitFor("containers(two)[2]", "registry.example.com/api:1.0", "registry.example.com/metrics:1.0")
	for _, col := range []string{"NAME", "IMAGE", "READY", "STATE", "RESTARTS", "PORTS", "PROBES(L:R:S)"} {
		if !strings.Contains(scr, col) {
			t.Errorf("the containers table has no %s column:\n%s", col, scr)
		}
	}
	s.waitFor("Running")

	s.keys("l") // the first row: api, not the default container
	scr = s.waitFor("logs pods " + ns + "/two api")
	if strings.Contains(scr, "which container?") {
		t.Errorf("l on a container asked which one:\n%s", scr)
	}
	s.keys("Escape")
	s.waitFor("containers(two)[2]")
	s.keys("Down", "l") // metrics
	s.waitFor("logs pods " + ns + "/two metrics")
	s.keys("Escape")
	s.waitFor("containers(two)[2]")
	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[1]")
	s.waitGone("containers(two)")
	s.keys("y")
	s.waitFor("kind: Pod", "name: two")
}
