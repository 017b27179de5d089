//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUIClustersPluginActsOnTheRowsCluster: in `configmaps @admin,@second`, where both clusters hold a
// ConfigMap of the same name, a plugin on the second cluster's row acts on the second cluster. Read-only:
// a plugin's kubectl without --context reads through the second cluster's own read-only proxy (its
// KUBECONFIG), so it prints the second cluster's ConfigMap's UID. Read-write: the plugin
// `kubectl delete configmap $NAME -n $NAMESPACE --context $CONTEXT` deletes the second cluster's ConfigMap
// and leaves the first's.
func TestUIClustersPluginActsOnTheRowsCluster(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	secondNamespace(t, ns)
	kubectl(t, "-n", ns, "create", "configmap", "shared", "--from-literal=a=1")
	kubectl(t, "--context", "second", "-n", ns, "create", "configmap", "shared", "--from-literal=a=2")
	uid := func(context string) string {
		return kubectl(t, "--context", context, "-n", ns, "get", "configmap", "shared", "-o", "jsonpath={.metadata.uid}")
	}
	adminUID, secondUID := uid("admin"), uid("second")

	k9s := filepath.Join(t.TempDir(), "k9s")
	writeFile(t, filepath.Join(k9s, "plugins.yaml"), `plugins:
  drop-cm:
    shortCut: Shift-K
    scopes: [configmaps]
    background: true
    command: kubectl
    args: [delete, configmap, $NAME, -n, $NAMESPACE, --context, $CONTEXT]
  cm-uid:
    shortCut: Shift-U
    scopes: [configmaps]
    background: true
    command: kubectl
    args: [get, configmap, $NAME, -n, $NAMESPACE, -o, "jsonpath={.metadata.uid}"]
`)
	environ := []string{"K9S_CONFIG_DIR=" + k9s}
	open := func(s *tmuxUI) {
		s.waitFor("admin synced", "second synced")
		s.keys("/")
		s.typeText("shared")
		s.keys("Enter")
		s.waitUntil("a row of each cluster", func(scr string) bool {
			return matches(scr, `admin +shared `) && matches(scr, `second +shared `)
		})
	}

	ro := startTmuxEnv(t, environ, env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600", "--readonly", "-n", ns, "configmaps", "@admin,@second")
	open(ro)
	ro.keys("Down") // the second cluster's row (ties sort by cluster)
	ro.typeText("U")
	ro.waitFor("plugin cm-uid done: " + secondUID)
	ro.keys("Up")
	ro.typeText("U")
	ro.waitFor("plugin cm-uid done: " + adminUID)
	ro.keys("C-c")
	ro.waitFor("KSCOPE-EXIT=0")

	rw := startTmuxEnv(t, environ, env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600", "-n", ns, "configmaps", "@admin,@second")
	open(rw)
	rw.keys("Down")
	rw.typeText("K")
	rw.waitFor("plugin drop-cm done")
	waitForSeen(t, 60*time.Second, "the second cluster's ConfigMap deleted", func() (bool, string) {
		out := kubectl(t, "--context", "second", "-n", ns, "get", "configmaps", "--no-headers")
		return !strings.Contains(out, "shared "), out
	})
	if out := kubectl(t, "-n", ns, "get", "configmaps", "--no-headers"); !strings.Contains(out, "shared ") {
		t.Fatalf("the first cluster's ConfigMap was deleted:\n%s", out)
	}
	rw.waitUntil("only the first cluster's row left", func(scr string) bool {
		return matches(scr, `admin +shared `) && !matches(scr, `second +shared `)
	})
}
