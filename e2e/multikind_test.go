//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// TestUISeveralKinds opens `kscope deploy,sts,ds` and `:all` in a namespace holding a deployment, a statefulset,
// a daemonset (a pod on each schedulable kwok node), a job and a service: each table holds exactly the objects
// `kubectl get deploy,sts,ds` / `kubectl get all` print, by kind and name, with their ages; a service created
// meanwhile appears; a filter keeps one kind; Enter on a row opens the YAML of that row's own kind.
func TestUISeveralKinds(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedKinds(t, ns)

	s := startUI(t, "-n", ns, "deploy,sts,ds")
	title := "deployments,statefulsets,daemonsets(" + ns + ")"
	scr := s.waitFor(title+"[3]", "synced  3/3", "<deployments,statefulsets,daemonsets>")
	compareKindRows(t, scr, kubectl(t, "-n", ns, "get", "deploy,sts,ds", "--no-headers"))

	s.keys(":")
	s.typeText("all")
	s.keys("Enter")
	want := kubectl(t, "-n", ns, "get", "all", "--no-headers")
	n := len(kubectlRows(t, want))
	scr = s.waitUntil("all("+ns+") with the rows of kubectl get all", func(scr string) bool {
		return strings.Contains(scr, "all("+ns+")[") && strings.Contains(scr, "synced") && len(tableRows(scr)) == n
	})
	compareKindRows(t, scr, want)

	// live: a new service appears in its kind's rows
	kubectl(t, "-n", ns, "create", "service", "clusterip", "api", "--tcp=8080:8080")
	s.waitUntil("service api in the table", func(scr string) bool { _, ok := tableRows(scr)["service/api"]; return ok })

	// a filter on the KIND cell keeps that kind only
	s.keys("/")
	s.typeText("^service$")
	s.keys("Enter")
	scr = s.waitFor("all("+ns+")[2]", "</^service$>")
	if got := slices.Sorted(maps.Keys(tableRows(scr))); !slices.Equal(got, []string{"service/api", "service/web"}) {
		t.Errorf("filtered rows %q, want the two services:\n%s", got, scr)
	}
	s.keys("Escape")
	s.waitGone("</^service$>")

	// every namespace (0), then back to ours: the same kinds, a NAMESPACE column while all are shown
	s.keys("0")
	s.waitUntil("all(all) with a NAMESPACE column", func(scr string) bool {
		return strings.Contains(scr, "all(all)[") && regexp.MustCompile(`KIND +NAMESPACE +NAME +AGE`).MatchString(scr)
	})
	s.keys(":")
	s.typeText("ns " + ns)
	s.keys("Enter")
	s.waitFor("all("+ns+")["+fmt.Sprint(n+1)+"]", "<all>")

	// the object keys act on the row's own kind
	s.keys("/")
	s.typeText("statefulset")
	s.keys("Enter")
	s.waitFor("all(" + ns + ")[1]")
	s.keys("y") // (Enter drills down to its pods)
	s.waitFor("statefulsets "+ns+"/db", "kind: StatefulSet")
	s.keys("Escape")
	s.waitFor("all(" + ns + ")[1]")

	// an unknown name in the list: one line naming it, the table unchanged
	s.keys(":")
	s.typeText("deploy,sttefulsets,ds")
	s.keys("Enter")
	s.waitFor(`unknown resource "sttefulsets" (did you mean statefulsets`, "all("+ns+")[1]")
	s.keys("q")
	s.waitFor("KSCOPE-EXIT=0")

	// on the command line: an error before the screen is taken
	cli := startUI(t, "deploy,nosuchthing")
	scr = cli.waitFor("KSCOPE-EXIT=1")
	if !strings.Contains(scr, `error: unknown resource "nosuchthing"`) {
		t.Errorf("unknown name in a list on the command line:\n%s", scr)
	}
}

// TestUISeveralKindsNameAForbiddenKind: the viewer may list deployments and statefulsets in the namespace but
// not daemonsets; `:deploy,sts,ds` shows the rows it may read and names the kind it may not, in the server's
// words.
func TestUISeveralKindsNameAForbiddenKind(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedKinds(t, ns)
	kubectl(t, "-n", ns, "create", "role", "apps-reader", "--verb=get,list,watch", "--resource=deployments,statefulsets")
	kubectl(t, "-n", ns, "create", "rolebinding", "viewer-reads-apps", "--role=apps-reader", "--user=viewer")

	s := startUI(t, "--context", "viewer", "-n", ns)
	s.waitFor("resources[", "Context: viewer")
	s.keys(":")
	s.typeText("deploy,sts,ds")
	s.keys("Enter")
	scr := s.waitFor("deployments,statefulsets,daemonsets("+ns+")[2]",
		`daemonset.apps: daemonsets.apps is forbidden: User "viewer" cannot list resource "daemonsets"`)
	rows := tableRows(scr)
	if got := slices.Sorted(maps.Keys(rows)); !slices.Equal(got, []string{"deployment.apps/web", "statefulset.apps/db"}) {
		t.Errorf("rows %q, want the deployment and the statefulset:\n%s", got, scr)
	}
	s.keys("q")
	s.waitFor("KSCOPE-EXIT=0")
}

// seedKinds creates in ns a deployment web (2 replicas), a statefulset db (1 replica), a daemonset agent, a
// job once and a service web, and waits until every controller has done its part (so that the tables and
// kubectl print the same objects).
func seedKinds(t *testing.T, ns string) {
	t.Helper()
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1.27", "--replicas=2")
	kubectl(t, "-n", ns, "create", "service", "clusterip", "web", "--tcp=80:80")
	kubectl(t, "-n", ns, "create", "job", "once", "--image=busybox:1.37", "--", "true")
	one := int32(1)
	template := func(app string) corev1.PodTemplateSpec {
		return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: app, Image: "registry.example.com/" + app + ":1.0"}}}}
	}
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db"}, Spec: appsv1.StatefulSetSpec{
		Replicas: &one, ServiceName: "db", Template: template("db"),
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}}}
	if _, err := cs.AppsV1().StatefulSets(ns).Create(ctx, sts, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create statefulset: %v", err)
	}
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "agent"}, Spec: appsv1.DaemonSetSpec{
		Template: template("agent"), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}}}
	if _, err := cs.AppsV1().DaemonSets(ns).Create(ctx, ds, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create daemonset: %v", err)
	}
	waitForSeen(t, 3*time.Minute, "the workloads ready and the job complete", func() (bool, string) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		d, err1 := cs.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		st, err2 := cs.AppsV1().StatefulSets(ns).Get(ctx, "db", metav1.GetOptions{})
		da, err3 := cs.AppsV1().DaemonSets(ns).Get(ctx, "agent", metav1.GetOptions{})
		j, err4 := cs.BatchV1().Jobs(ns).Get(ctx, "once", metav1.GetOptions{})
		if err := cmpErr(err1, err2, err3, err4); err != nil {
			return false, err.Error()
		}
		return d.Status.AvailableReplicas == 2 && d.Status.UpdatedReplicas == 2 && d.Status.Replicas == 2 &&
				st.Status.ReadyReplicas == 1 && st.Status.AvailableReplicas == 1 && st.Status.CurrentReplicas == 1 &&
				da.Status.DesiredNumberScheduled > 0 && da.Status.NumberReady == da.Status.DesiredNumberScheduled &&
				da.Status.NumberAvailable == da.Status.DesiredNumberScheduled &&
				da.Status.UpdatedNumberScheduled == da.Status.DesiredNumberScheduled &&
				j.Status.Succeeded == 1 && j.Status.CompletionTime != nil,
			fmt.Sprintf("deployment %+v\nstatefulset %+v\ndaemonset %+v\njob %+v", d.Status, st.Status, da.Status, j.Status)
	})
	// The pods of the job and the workloads, all in their final phase.
	waitForSeen(t, 2*time.Minute, "every pod running or done", func() (bool, string) {
		out := kubectl(t, "-n", ns, "get", "pods", "--no-headers")
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Fields(l); len(f) < 3 || (f[2] != "Running" && f[2] != "Completed") {
				return false, out
			}
		}
		return true, out
	})
}

func cmpErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// kubectlRows reads `kubectl get a,b --no-headers` (blank lines between kinds): "kind/name" → AGE, its last cell.
func kubectlRows(t *testing.T, out string) map[string]string {
	t.Helper()
	rows := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) >= 2 {
			rows[f[0]] = f[len(f)-1]
		}
	}
	return rows
}

// tableRows reads the rows of a table of several kinds (KIND NAME AGE) on screen: "kind/name" → AGE.
func tableRows(scr string) map[string]string {
	rows := map[string]string{}
	header := false
	for _, l := range strings.Split(scr, "\n") {
		if !strings.HasPrefix(l, "│") && !strings.HasPrefix(l, "║") {
			continue
		}
		f := strings.Fields(strings.Trim(l, "│║ "))
		switch {
		case len(f) >= 3 && f[0] == "KIND" && f[1] == "NAME" && f[2] == "AGE":
			header = true
		case header && len(f) == 3:
			rows[f[0]+"/"+f[1]] = f[2]
		}
	}
	return rows
}

// compareKindRows checks that the table on scr holds the objects of kubectl's output, each with its kind and
// name, and its age within the seconds between the two reads.
func compareKindRows(t *testing.T, scr, kubectlOut string) {
	t.Helper()
	want, got := kubectlRows(t, kubectlOut), tableRows(scr)
	if w, g := slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got)); !slices.Equal(w, g) {
		t.Fatalf("the table's rows\n%q\ndiffer from kubectl's\n%q\n%s\n%s", g, w, scr, kubectlOut)
	}
	for k, age := range want {
		a, errA := time.ParseDuration(age)
		b, errB := time.ParseDuration(got[k])
		if d := a - b; errA != nil || errB != nil || d > 3*time.Second || d < -3*time.Second {
			t.Errorf("%s: AGE %s on screen, %s by kubectl", k, got[k], age)
		}
	}
}
