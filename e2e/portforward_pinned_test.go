//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestUIPortForwardStopsOnPodOutsideController: a forward of a StatefulSet's pod says in :pf what it follows
// (the pod db-0 of the set, by UID); once the set is scaled to none and a pod of that name is created outside
// it (labels the set does not select, no owner), the forward does not go to it: :pf says it ended and why,
// with no move, and a GET through its local port is no longer answered.
func TestUIPortForwardStopsOnPodOutsideController(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	statefulSet(t, ns, "db", 8080)
	waitKubectl(t, "Running", "-n", ns, "get", "pod", "db-0", "-o", "jsonpath={.status.phase}")
	s := startUI(t, "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", "db-0", "Running")
	port := forwardFromUI(t, s, "F", ns+"/db-0:8080", ns+"/db-0:8080")
	if err := getVia(port, "/before", 10*time.Second); err != nil {
		t.Fatalf("GET through the forward: %v", err)
	}
	s.typeText(":pf")
	s.keys("Enter")
	s.waitUntil("the forward on db-0, following the set's pod", func(scr string) bool {
		pod, moves := pfRow(scr)
		return pod == "db-0" && moves == "0" && strings.Contains(scr, "pod db-0 of statefulset db (uid ")
	})

	s.resize(300, 45) // the namespace's long name widens TARGET: STATE is then seen whole
	kubectl(t, "-n", ns, "scale", "statefulset", "db", "--replicas=0")
	s.waitFor("waiting for pod db-0 since ")
	waitForSeen(t, 90*time.Second, "db-0 gone", func() (bool, string) {
		out := kubectl(t, "-n", ns, "get", "pod", "db-0", "--ignore-not-found", "-o", "jsonpath={.metadata.uid}")
		return strings.TrimSpace(out) == "", out
	})
	createRunningPod(t, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "db-0", Namespace: ns, Labels: map[string]string{"app": "impostor"}},
		Spec: corev1.PodSpec{NodeName: "kwok-node-0", Containers: []corev1.Container{{
			Name: "db", Image: "registry.example.com/db:1.0",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}},
		}}},
	})
	scr := s.waitUntil("the forward ended, saying why", func(scr string) bool {
		return strings.Contains(scr, "ended: pod db-0 was re-created outside statefulset db (uid changed)")
	})
	if pod, _ := pfRow(scr); pod != "" {
		t.Errorf(":pf still shows a forward to %s:\n%s", pod, scr)
	}
	if err := getVia(port, "/after", 5*time.Second); err == nil {
		t.Errorf("a GET through the forward was answered after db-0 was re-created outside the set:\n%s", scr)
	}
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
}
