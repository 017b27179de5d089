//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// secondNamespace creates the namespace ns in the devcluster's second cluster (context "second") too, waits
// for its default ServiceAccount, and deletes it when t ends.
func secondNamespace(t *testing.T, ns string) {
	t.Helper()
	kubectl(t, "--context", "second", "create", "namespace", ns)
	t.Cleanup(func() {
		kubectl(t, "--context", "second", "delete", "namespace", ns, "--wait=false")
	})
	waitForSeen(t, 60*time.Second, "the default ServiceAccount of "+ns+" in the second cluster", func() (bool, string) {
		out := kubectl(t, "--context", "second", "-n", ns, "get", "serviceaccounts", "-o", "name")
		return strings.Contains(out, "serviceaccount/default"), out
	})
}

// kubeconfigWithUnreachable writes a copy of the devcluster's kubeconfig with one more context, "gone", whose
// server nothing listens on.
func kubeconfigWithUnreachable(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	kubectl(t, "--kubeconfig", path, "config", "set-cluster", "gone", "--server", "https://127.0.0.1:1")
	kubectl(t, "--kubeconfig", path, "config", "set-context", "gone", "--cluster", "gone", "--user", "admin")
	return path
}

// TestUIClustersTable opens `pods @admin,@second,@gone` in one namespace of both devcluster clusters: one
// table with a CONTEXT column holds each cluster's pods, a pod of the same name in both is two rows, the
// unreachable cluster is named on the status line without blanking the others, a pod created in the second
// cluster appears live, and delete on the second cluster's row deletes that pod only, its question naming
// the context.
func TestUIClustersTable(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	secondNamespace(t, ns)
	kubeconfig := kubeconfigWithUnreachable(t)
	kubectl(t, "-n", ns, "run", "web", "--image=nginx:1.27")
	kubectl(t, "--context", "second", "-n", ns, "run", "web", "--image=nginx:1.27")
	kubectl(t, "--context", "second", "-n", ns, "run", "only-second", "--image=nginx:1.27")

	s := startUI(t, "--kubeconfig", kubeconfig, "-n", ns, "pods", "@admin,@second,@gone")
	s.waitFor("pods @admin,@second,@gone("+ns+")[3]", "CONTEXT", "admin synced", "second synced", "gone unreachable")
	s.waitUntil("a row of each cluster", func(scr string) bool {
		return matches(scr, `admin +web `) && matches(scr, `second +web `) && matches(scr, `second +only-second `)
	})

	kubectl(t, "--context", "second", "-n", ns, "run", "late", "--image=nginx:1.27")
	s.waitUntil("the second cluster's new pod", func(scr string) bool { return matches(scr, `second +late `) })

	s.keys("/")
	s.typeText("web")
	s.keys("Enter")
	s.waitFor("</web>")
	s.keys("Down")
	s.keysUntilUID("C-d", "context second: Delete pods web?")
	s.keys("Right", "Enter")
	waitForSeen(t, 60*time.Second, "the second cluster's web deleted", func() (bool, string) {
		out := kubectl(t, "--context", "second", "-n", ns, "get", "pods", "--no-headers")
		return !strings.Contains(out, "web "), out
	})
	if out := kubectl(t, "-n", ns, "get", "pods", "--no-headers"); !strings.Contains(out, "web ") {
		t.Fatalf("the first cluster's web was deleted too:\n%s", out)
	}
	s.waitUntil("only the first cluster's web left", func(scr string) bool {
		return matches(scr, `admin +web `) && !matches(scr, `second +web `)
	})
}

// matches tells whether the regular expression re matches screen.
func matches(screen, re string) bool { return regexp.MustCompile(re).MatchString(screen) }
