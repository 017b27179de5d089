//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
)

// TestReliabilityBrokenAPIServiceNamedNotFatal: an APIService (a group of its own) whose Service does not
// exist. bin/kscope starts, the status line names the unavailable group-version, the rest works, and
// opening a resource of that group explains itself in one line; no crash.
func TestReliabilityBrokenAPIServiceNamedNotFatal(t *testing.T) {
	serial(t, "registers a broken APIService (every client's discovery warns)")
	ns := testNamespace(t)
	group := "broken-" + randomSuffix() + ".e2e.example.com"
	gv := group + "/v1alpha1"
	dyn := dynamic.NewForConfigOrDie(restConfig(t, "admin"))
	svc := brokenAPIService(group, ns)
	if _, err := dyn.Resource(apiServiceGVR).Create(context.Background(), svc, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create APIService: %v", err)
	}
	t.Cleanup(func() { deleteIgnoringNotFound(t, dyn.Resource(apiServiceGVR), svc.GetName()) })
	waitForSeen(t, 60*time.Second, "the aggregator marks "+gv+" unavailable", func() (bool, string) {
		_, stderr, code := runKscope(t, "api-resources")
		return strings.Contains(stderr, gv), fmt.Sprintf("kscope api-resources: exit %d, stderr %q", code, stderr)
	})

	ui := startUI(t, "-n", "shop")
	ui.waitFor("resources[", "unavailable: "+gv)
	ui.typeText("widgets")
	ui.keys("Enter")
	ui.waitFor("widgets(shop)[", "synced")
	ui.typeText(":things." + group)
	ui.keys("Enter")
	scr := ui.waitUntil("the answer to :things."+group, func(scr string) bool {
		line := lineWith(scr, "things."+group)
		return strings.Contains(line, "unknown resource") || strings.Contains(line, "unavailable")
	})
	line := lineWith(scr, "things."+group)
	t.Logf("opening things.%s: %q", group, strings.TrimSpace(line))
	if !strings.Contains(line, "unavailable") || !strings.Contains(line, gv) {
		t.Errorf("the message does not say that %s is unavailable: %q", gv, line)
	}
	ui.waitFor("widgets(shop)[") // still on the table
	ui.typeText("q")
	ui.waitFor("KSCOPE-EXIT=0")
}

// TestReliabilityCRDDeletedAndRecreated: the table of a custom resource is open when its CRD is deleted: it
// says the resource is not found any more, without a crash; once the CRD is created again the resource opens
// again, live.
func TestReliabilityCRDDeletedAndRecreated(t *testing.T) {
	serial(t, "creates, deletes and recreates a CRD (cluster-wide discovery)")
	ns := testNamespace(t)
	group := "e2e" + randomSuffix() + ".example.com"
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.` + group + `
spec:
  group: ` + group + `
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`
	gizmo := func(name string) string {
		return "apiVersion: " + group + "/v1\nkind: Gizmo\nmetadata: {name: " + name + ", namespace: " + ns + "}\n"
	}
	apply := func(manifest string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			cmd := exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "apply", "-f", "-")
			cmd.Stdin = strings.NewReader(manifest)
			out, err := cmd.CombinedOutput()
			if err == nil {
				return
			}
			if time.Now().After(deadline) { // a new CRD is served a moment after it is created
				t.Fatalf("kubectl apply: %v\n%s", err, out)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	apply(crd)
	t.Cleanup(func() {
		_ = exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "delete", "crd", "gizmos."+group, "--ignore-not-found").Run()
	})
	apply(gizmo("first"))

	ui := startUI(t, "-n", ns)
	ui.waitFor("resources[")
	ui.typeText(":gizmos." + group)
	ui.keys("Enter")
	ui.waitFor("gizmos("+ns+")[1]", "first", "synced")

	kubectl(t, "delete", "crd", "gizmos."+group)
	// The table itself says so (its placeholder line), not just any line of the screen.
	scr := ui.waitUntil("the table says not found", func(scr string) bool { return inTableArea(scr, "not found: ") })
	t.Logf("after the CRD was deleted: %q", strings.TrimSpace(lineWith(scr, "not found")))
	if strings.Contains(scr, "KSCOPE-EXIT") {
		t.Fatalf("kscope ended:\n%s", scr)
	}

	apply(crd)
	apply(gizmo("second"))
	ui.typeText(":gizmos." + group)
	ui.keys("Enter")
	scr = ui.waitFor("gizmos("+ns+")[1]", "second", "synced")
	if strings.Contains(scr, "first") {
		t.Errorf("the recreated resource shows the deleted instance:\n%s", scr)
	}
	kubectl(t, "delete", "crd", "gizmos."+group)
	ui.waitUntil("the table says not found", func(scr string) bool { return inTableArea(scr, "not found: ") })
	ui.typeText("q")
	ui.waitFor("KSCOPE-EXIT=0")
}
