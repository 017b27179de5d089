//go:build e2e

package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestUIPodsInSeveralNamespaces opens `:pods A,B` and checks that the one table holds exactly the rows
// kubectl get prints for A and for B, each with its namespace, and follows a pod created in B.
func TestUIPodsInSeveralNamespaces(t *testing.T) {
	parallel(t)
	a, b := testNamespace(t), testNamespace(t)
	kubectl(t, "-n", a, "run", "alpha-1", "--image=nginx:1.27")
	kubectl(t, "-n", a, "run", "alpha-2", "--image=nginx:1.27")
	kubectl(t, "-n", b, "run", "beta-1", "--image=nginx:1.27")
	waitForSeen(t, 60*time.Second, "3 running pods", func() (bool, string) {
		out := kubectl(t, "get", "pods", "-A", "--no-headers", "--field-selector=status.phase=Running")
		return strings.Count(out, " alpha-")+strings.Count(out, " beta-") == 3, out
	})
	s := startUI(t, "-n", a, "pods")
	s.waitFor("pods("+a+")[2]", "synced")
	s.keys(":")
	s.typeText("pods " + a + "," + b)
	s.keys("Enter")
	scr := s.waitFor("pods("+a+","+b+")[3]", "synced  3/3", "NAMESPACE")
	for _, ns := range []string{a, b} {
		for _, line := range strings.Split(strings.TrimSpace(kubectl(t, "-n", ns, "get", "pods", "--no-headers")), "\n") {
			f := strings.Fields(line) // NAME READY STATUS RESTARTS AGE
			row := regexp.MustCompile(regexp.QuoteMeta(ns) + ` +` + regexp.QuoteMeta(f[0]) + ` +` + regexp.QuoteMeta(f[1]) + ` +` + regexp.QuoteMeta(f[2]) + ` +` + f[3] + ` `)
			if !row.MatchString(scr) {
				t.Errorf("no row %q of kubectl in namespace %s on screen:\n%s", line, ns, scr)
			}
		}
	}
	kubectl(t, "-n", b, "run", "beta-2", "--image=nginx:1.27")
	s.waitFor("pods("+a+","+b+")[4]", "beta-2")
}
