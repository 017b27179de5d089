//go:build e2e

package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// applyYAML applies manifest with kubectl (as admin); it fails t on error.
func applyYAML(t *testing.T, manifest string) {
	t.Helper()
	cmd := exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "apply", "-f", "-")
	cmd.Stdin = strings.NewReader(manifest)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kubectl apply: %v\n%s\n%s", err, out, manifest)
	}
}

// uidOf returns an object's UID ("-n NS kind/name", or "kind/name" for cluster-scoped ones).
func uidOf(t *testing.T, args ...string) string {
	t.Helper()
	return kubectl(t, append([]string{"get", "-o", "jsonpath={.metadata.uid}"}, args...)...)
}

// waitKubectl runs kubectl args until its output contains want, failing t after 90 s.
func waitKubectl(t *testing.T, want string, args ...string) string {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		// An error is "not yet": a jsonpath on .items[0] fails until the first item exists.
		cmd := exec.Command("kubectl", append([]string{"--kubeconfig", env.kubeconfig}, args...)...)
		raw, err := cmd.Output()
		out := string(raw)
		if err == nil && strings.Contains(out, want) {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("kubectl %s never showed %q (%v):\n%s", strings.Join(args, " "), want, err, out)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// ownedBy is an ownerReferences entry for metadata, controller true.
func ownedBy(apiVersion, kind, name, uid string) string {
	return fmt.Sprintf("  ownerReferences:\n  - {apiVersion: %s, kind: %s, name: %s, uid: %s, controller: true}\n",
		apiVersion, kind, name, uid)
}

// gadgetCRD applies a namespaced CRD of its own (kind Gadget, group tree<suffix>.example.com, status
// subresource) and deletes it when t ends; it returns the group.
func gadgetCRD(t *testing.T) string {
	t.Helper()
	group := "tree" + randomSuffix() + ".example.com"
	applyYAML(t, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.`+group+`}
spec:
  group: `+group+`
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`)
	t.Cleanup(func() {
		_ = exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "delete", "crd", "gadgets."+group, "--wait=false").Run()
	})
	waitKubectl(t, "True", "get", "crd", "gadgets."+group, "-o", "jsonpath={.status.conditions[?(@.type=='Established')].status}")
	return group
}

// treeOf opens, from any view, the tree of the object name of resource and returns the screen once every
// kind is listed.
func treeOf(s *tmuxUI, resource, name, title string) string {
	s.t.Helper()
	s.typeText(":" + resource)
	s.keys("Enter")
	s.waitFor("Namespace:", "synced")
	s.typeText("/^" + name + "$")
	s.keys("Enter")
	s.waitFor("</^" + name + "$>")
	s.typeText("t")
	return s.waitFor("tree "+title, "kinds listed in")
}

// TestTreeChains: the trees of a Deployment, a StatefulSet, a CronJob's Job and a custom resource owning
// built-in kinds show each chain; a namespaced object with a cluster-scoped owner shows that owner above it;
// an orphan stands alone; Enter opens a node's YAML; the tree follows changes live.
func TestTreeChains(t *testing.T) {
	serial(t, "creates a CRD and a ClusterRole (cluster-wide)")
	ns := testNamespace(t)
	group := gadgetCRD(t)
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1.27", "--replicas=2")
	applyYAML(t, `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: `+ns+`}
spec:
  serviceName: db
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres:16}]}
`)
	kubectl(t, "-n", ns, "create", "cronjob", "nightly", "--image=busybox", "--schedule=0 3 * * *", "--", "true")
	kubectl(t, "-n", ns, "create", "job", "manual", "--from=cronjob/nightly")
	applyYAML(t, "apiVersion: "+group+"/v1\nkind: Gadget\nmetadata: {name: g1, namespace: "+ns+"}\n")
	g1 := uidOf(t, "-n", ns, "gadgets."+group+"/g1")
	applyYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: g1-config\n  namespace: "+ns+"\n"+
		ownedBy(group+"/v1", "Gadget", "g1", g1)+"data: {a: b}\n---\n"+
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: g1-pod\n  namespace: "+ns+"\n"+ownedBy(group+"/v1", "Gadget", "g1", g1)+
		"spec: {containers: [{name: c, image: nginx:1.27}]}\n")
	role := "tree-e2e-" + ns
	kubectl(t, "create", "clusterrole", role, "--verb=get", "--resource=pods")
	t.Cleanup(func() {
		_ = exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "delete", "clusterrole", role).Run()
	})
	roleUID := uidOf(t, "clusterrole/"+role)
	applyYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  namespace: "+ns+"\n"+
		ownedBy("rbac.authorization.k8s.io/v1", "ClusterRole", role, roleUID)+"---\n"+
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lonely, namespace: "+ns+"}\n")
	rs := strings.TrimSpace(waitKubectl(t, "web-", "-n", ns, "get", "rs", "-o", "jsonpath={.items[0].metadata.name}"))
	waitKubectl(t, "db-0", "-n", ns, "get", "pods")
	revision := strings.TrimSpace(waitKubectl(t, "db-", "-n", ns, "get", "controllerrevisions", "-o", "jsonpath={.items[0].metadata.name}"))
	job := waitKubectl(t, "manual-", "-n", ns, "get", "pods", "-l", "job-name=manual", "-o", "jsonpath={.items[0].metadata.name}")
	webPods := strings.Fields(waitKubectl(t, " ", "-n", ns, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].metadata.name}"))

	s := startUI(t, "-n", ns, "deploy")
	s.waitFor("deployments("+ns+")[1]", "synced")
	s.typeText("t")
	scr := s.waitFor("tree deployments "+ns+"/web", "kinds listed in", "requests,", "Deployment web",
		"└─ ReplicaSet "+rs, "   ├─ Pod "+webPods[0], "   └─ Pod "+webPods[1])
	if strings.Contains(scr, "not visible") || strings.Contains(scr, "failed:") {
		t.Errorf("admin's tree names kinds not visible or failing:\n%s", scr)
	}
	s.waitUntil("every node's health", func(scr string) bool { return strings.Count(scr, " Current ") >= 4 })

	// Live: scaling to 3 adds a pod under the replica set.
	kubectl(t, "-n", ns, "scale", "deployment", "web", "--replicas=3")
	s.waitUntil("a third pod in the tree", func(scr string) bool { return strings.Count(scr, "─ Pod web-") == 3 })

	// Enter on the first pod (the focus is selected: two downs) opens its YAML.
	s.keys("Down", "Down", "Enter")
	s.waitFor("kind: Pod", "name: web-", "health Current")
	s.keys("Escape")
	s.waitFor("tree deployments " + ns + "/web")

	treeOf(s, "sts", "db", "statefulsets "+ns+"/db")
	s.waitFor("StatefulSet db", "├─ ControllerRevision "+revision, "└─ Pod db-0")

	s.typeText(":cj")
	s.keys("Enter")
	s.waitFor("cronjobs("+ns+")", "nightly")
	s.typeText("t")
	s.waitFor("tree cronjobs "+ns+"/nightly", "kinds listed in", "CronJob nightly", "└─ Job manual", "   └─ Pod "+job)

	treeOf(s, "gadgets."+group, "g1", "gadgets "+ns+"/g1")
	s.waitFor("Gadget g1", "├─ ConfigMap g1-config", "└─ Pod g1-pod")

	treeOf(s, "cm", "held", "configmaps "+ns+"/held")
	s.waitFor("ClusterRole "+role, "└─ ConfigMap held")

	scr = treeOf(s, "cm", "lonely", "configmaps "+ns+"/lonely")
	if !strings.Contains(scr, "ConfigMap lonely") || strings.Contains(scr, "─ ") {
		t.Errorf("the orphan's tree is not the orphan alone:\n%s", scr)
	}
	s.typeText(":q")
	s.keys("Enter")
	s.waitFor("KSCOPE-EXIT=0")
}

// TestTreeForbiddenKindAsViewer: the viewer may list pods and deployments in its namespace only. The tree of
// a pod names its ReplicaSet owner as not visible, and the kinds it may not list are named, never dropped.
func TestTreeForbiddenKindAsViewer(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedPods(t, ns)
	kubectl(t, "-n", ns, "create", "role", "tree-reader", "--verb=get,list,watch", "--resource=pods,deployments")
	kubectl(t, "-n", ns, "create", "rolebinding", "viewer-reads-tree", "--role=tree-reader", "--user=viewer")
	rs := strings.TrimSpace(waitKubectl(t, "web-", "-n", ns, "get", "rs", "-o", "jsonpath={.items[0].metadata.name}"))
	pod := strings.Fields(kubectl(t, "-n", ns, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].metadata.name}"))[0]

	s := startUI(t, "--context", "viewer", "-n", ns, "pods")
	s.waitFor("pods("+ns+")[3]", "synced")
	s.typeText("/^" + pod + "$")
	s.keys("Enter")
	s.waitFor("</^" + pod + "$>")
	s.typeText("t")
	scr := s.waitFor("tree pods "+ns+"/"+pod, "kinds listed in", "ReplicaSet "+rs+" (not visible)", "└─ Pod "+pod,
		"not visible:", "named under the tree")
	s.waitFor("not visible: configmaps", "not visible: secrets")
	if strings.Contains(scr, "not visible: pods ") {
		t.Errorf("pods, which the viewer may list, are named not visible:\n%s", scr)
	}
	s.typeText(":q")
	s.keys("Enter")
	s.waitFor("KSCOPE-EXIT=0")
}
