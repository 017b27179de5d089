//go:build e2e

package e2e

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	"kscope/health"
)

// headerHas tells whether the table's header line (the one with NAME) names col.
func headerHas(scr, col string) bool {
	return strings.Contains(lineWith(scr, "NAME "), col)
}

// TestHealthColumnRollout: shift-h on a table of Deployments adds HEALTH, which reads InProgress while a
// Deployment rolls out (its new pod must stay ready 15 s before it counts as available) and Current after;
// a second rollout goes through both again; shift-h drops the column.
func TestHealthColumnRollout(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	applySlowDeployment(t, ns)
	s := startUI(t, "-n", ns, "deploy")
	s.waitFor("deployments("+ns+")[1]", "slow")
	s.typeText("H")
	health := func(want string) {
		t.Helper()
		s.waitUntil("slow "+want, func(scr string) bool {
			return headerHas(scr, "HEALTH") && strings.HasSuffix(strings.TrimRight(lineWith(scr, "slow "), " ║│"), " "+want)
		})
	}
	health("InProgress")
	health("Current")
	kubectl(t, "-n", ns, "set", "image", "deployment/slow", "web=nginx:1.28")
	health("InProgress")
	health("Current")
	s.typeText(">>>>>>") // NAME READY UP-TO-DATE AVAILABLE AGE, then HEALTH (CONTAINERS, IMAGES, SELECTOR are wide)
	s.waitFor("sort:HEALTH↑")
	s.typeText("H")
	s.waitUntil("no HEALTH column", func(scr string) bool {
		return !headerHas(scr, "HEALTH") && strings.Contains(scr, "slow")
	})
}

// TestHealthColumnFailedJob: a Job whose pod can never be scheduled and whose deadline passes reads Failed
// in the HEALTH column of the jobs table.
func TestHealthColumnFailedJob(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	applyDoomedJob(t, ns)
	s := startUI(t, "-n", ns, "jobs")
	s.waitFor("jobs("+ns+")[1]", "doomed")
	s.typeText("H")
	s.waitUntil("doomed Failed", func(scr string) bool {
		return headerHas(scr, "HEALTH") && strings.Contains(lineWith(scr, "doomed "), " Failed")
	})
}

// TestHealthColumnTerminating: a ConfigMap held by a finalizer after its deletion reads Terminating in the
// HEALTH column, beside one that is Current; once the finalizer goes, so does its row.
func TestHealthColumnTerminating(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	applyYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  namespace: "+ns+
		"\n  finalizers: [kscope.example.com/hold]\ndata: {a: b}\n---\n"+
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: free, namespace: "+ns+"}\ndata: {a: b}\n")
	release := func() {
		_ = exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "-n", ns, "patch", "configmap", "held",
			"--type=merge", "-p", `{"metadata":{"finalizers":null}}`).Run()
	}
	t.Cleanup(release)
	kubectl(t, "-n", ns, "delete", "configmap", "held", "--wait=false")
	s := startUI(t, "-n", ns, "cm")
	s.waitFor("configmaps("+ns+")", "held", "free")
	s.typeText("H")
	s.waitUntil("held Terminating, free Current", func(scr string) bool {
		return headerHas(scr, "HEALTH") && strings.Contains(lineWith(scr, "held "), " Terminating") &&
			strings.Contains(lineWith(scr, "free "), " Current")
	})
	release()
	s.waitUntil("held gone", func(scr string) bool {
		return !strings.Contains(scr, "Terminating") && strings.Contains(lineWith(scr, "free "), " Current")
	})
}

// TestHealthColumnPods: shift-h on the pods table (its HEALTH read in protobuf) gives each pod the word kstatus
// computes from the pod as `kubectl get -o json` shows it: Current for the one that runs, Failed for the one
// no node can take (unschedulable for longer than kstatus' 15 s).
func TestHealthColumnPods(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	applyFineAndStuck(t, ns)
	waitKubectl(t, "Unschedulable", "-n", ns, "get", "pods", "-l", "app=stuck", "-o",
		"jsonpath={.items[0].status.conditions[*].reason}")
	waitKubectl(t, "Running", "-n", ns, "get", "pods", "-l", "app=fine", "-o", "jsonpath={.items[0].status.phase}")
	created, err := time.Parse(time.RFC3339, kubectl(t, "-n", ns, "get", "pods", "-l", "app=stuck", "-o",
		"jsonpath={.items[0].metadata.creationTimestamp}"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(created.Add(status.ScheduleWindow + 2*time.Second))) // (kstatus' window passes)
	want := map[string]string{}
	var list unstructured.UnstructuredList
	if err := list.UnmarshalJSON([]byte(kubectl(t, "-n", ns, "get", "pods", "-o", "json"))); err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		want[list.Items[i].GetLabels()["app"]] = string(health.StatusOf(&list.Items[i]))
	}
	if want["fine"] != "Current" || want["stuck"] != "Failed" {
		t.Fatalf("kstatus of kubectl's JSON: %v", want)
	}
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[2]", "fine-", "stuck-")
	s.typeText("H")
	s.waitUntil("fine "+want["fine"]+", stuck "+want["stuck"], func(scr string) bool {
		return cellUnder(scr, "HEALTH", "fine-") == want["fine"] && cellUnder(scr, "HEALTH", "stuck-") == want["stuck"]
	})
}

// cellUnder is the word of the row line with row that starts under the header col ("" for none): the table's
// columns are aligned, and its cells here are ASCII.
func cellUnder(scr, col, row string) string {
	at := strings.Index(lineWith(scr, "NAME "), " "+col+" ")
	line := lineWith(scr, row)
	if at < 0 || line == "" || at+1 >= len(line) {
		return ""
	}
	f := strings.Fields(line[at+1:])
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
