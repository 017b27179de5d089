//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readOnlyConfigDirs returns the environment that gives kscope only the configuration folder dir (kscope's
// and k9s's files, nothing of the machine's user), and the devcluster's kubeconfig as $KUBECONFIG, as a
// user who has it in their shell has: a child that escaped kscope's read-only kubeconfig would write with it.
func readOnlyConfigDirs(dir string) []string {
	return []string{"KSCOPE_CONFIG_DIR=" + dir, "K9S_CONFIG_DIR=" + filepath.Join(dir, "k9s"),
		"XDG_DATA_HOME=" + filepath.Join(dir, "data"), "KUBECONFIG=" + env.kubeconfig}
}

// noWritesBy fails t when user wrote anything since from (any client: kscope, or a child's kubectl), once
// the audit log has caught up; it returns the user's requests.
func noWritesBy(t *testing.T, user string, from time.Time) []auditEvent {
	t.Helper()
	to := time.Now()
	waitAuditLogged(t, user)
	reqs := auditRequests(t, user, "", from, to)
	for _, ev := range reqs {
		switch ev.Verb {
		case "create", "update", "patch", "delete", "deletecollection":
			if ev.ObjectRef != nil && strings.HasPrefix(ev.ObjectRef.Resource, "self") {
				continue // a review of the user's own rights
			}
			t.Errorf("%s wrote: %s %s", user, ev.Verb, ev.URI)
		}
	}
	return reqs
}

// TestReadOnlyTrustConfigNextToUnusableValues: readOnly: true in config.yaml next to values kscope cannot
// use (a buffer over k9s's limit, a refresh rate in words, a skin with a folder) starts kscope read-only,
// each bad value one line; ctrl-d is refused, the object stays, and the audit log holds no write.
func TestReadOnlyTrustConfigNextToUnusableValues(t *testing.T) {
	serial(t, "counts tester's writes in the audit log")
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "configmap", "victim", "--from-literal=a=b")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "config.yaml"),
		"k9s:\n  readOnly: true\n  refreshRate: fast\n  ui:\n    skin: my/skin\n  logger:\n    buffer: 10000\n")
	from := time.Now()
	s := startTmuxEnv(t, readOnlyConfigDirs(dir), env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600",
		"--context", "tester", "-n", ns, "configmaps")
	s.waitFor("configmaps("+ns+")", "victim", "READ-ONLY")
	s.typeText("/victim")
	s.keys("Enter")
	s.waitFor("configmaps(" + ns + ")[1]")
	s.keys("C-d")
	scr := s.waitFor("read-only mode: refusing to delete configmaps " + ns + "/victim")
	if strings.Contains(scr, "Delete configmaps") {
		t.Errorf("read-only mode asked for confirmation:\n%s", scr)
	}
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
	if out := kubectl(t, "-n", ns, "get", "configmap", "victim", "-o", "jsonpath={.metadata.name}"); out != "victim" {
		t.Fatalf("configmap victim: %q", out)
	}
	if reqs := noWritesBy(t, "tester", from); len(reqs) == 0 {
		t.Fatal("no request of tester in the audit log: the check proves nothing")
	}
}

// TestReadOnlyTrustPluginCannotWrite: with --readonly, a k9s plugin (plugins.yaml in the config folder)
// that runs `kubectl get` then `kubectl delete` on the selected ConfigMap, with the user's KUBECONFIG in
// kscope's environment: the get reaches the cluster as the user (through kscope's proxy), the delete is
// refused with kscope's message, the status line names it, the object stays and the audit log holds no write.
func TestReadOnlyTrustPluginCannotWrite(t *testing.T) {
	serial(t, "counts tester's writes in the audit log")
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "configmap", "victim", "--from-literal=a=b")
	dir := t.TempDir()
	out := filepath.Join(dir, "plugin-out")
	writeFile(t, filepath.Join(dir, "plugins.yaml"), "plugins:\n  remove:\n    shortCut: Shift-X\n    scopes: [configmaps]\n"+
		"    description: delete it with kubectl\n    background: true\n    command: sh\n"+
		"    args: [-c, 'kubectl --context \"$0\" -n \"$1\" get configmap \"$2\" -o name > \"$3\" 2>&1; kubectl --context \"$0\" -n \"$1\" delete configmap \"$2\" >> \"$3\" 2>&1', $CONTEXT, $NAMESPACE, $NAME, "+out+"]\n")
	from := time.Now()
	s := startTmuxEnv(t, readOnlyConfigDirs(dir), env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600",
		"--readonly", "--context", "tester", "-n", ns, "configmaps")
	s.waitFor("configmaps("+ns+")", "victim", "READ-ONLY")
	s.typeText("/victim")
	s.keys("Enter")
	s.waitFor("configmaps(" + ns + ")[1]")
	s.typeText("X")
	scr := s.waitFor("DELETE /api/v1/namespaces/" + ns + "/configmaps/victim")
	if !strings.Contains(scr, "read-only mode") {
		t.Errorf("the status line does not say read-only mode refused it:\n%s", scr)
	}
	waitForSeen(t, 30*time.Second, "the plugin's output", func() (bool, string) {
		data := readFile(t, out)
		return strings.Contains(data, "Forbidden"), data
	})
	data := readFile(t, out)
	if !strings.HasPrefix(data, "configmap/victim\n") || !strings.Contains(data, "read-only mode: DELETE /api/v1/namespaces/"+ns+"/configmaps/victim refused") {
		t.Errorf("the plugin's kubectl printed %q, want the get's name, then kscope's refusal", data)
	}
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
	if out := kubectl(t, "-n", ns, "get", "configmap", "victim", "-o", "jsonpath={.metadata.name}"); out != "victim" {
		t.Fatalf("configmap victim: %q", out)
	}
	reqs := noWritesBy(t, "tester", from)
	var childRead bool
	for _, ev := range reqs {
		childRead = childRead || (strings.HasPrefix(ev.UserAgent, "kubectl") && ev.Verb == "get" && strings.HasSuffix(ev.URI, "/configmaps/victim"))
	}
	if !childRead {
		t.Errorf("the plugin's get did not reach the server as tester (%s)", describeRequests(reqs))
	}
}

// TestReadOnlyTrustObjectNamedExec: under --readonly a ConfigMap named exec opens in YAML (a subresource
// is matched by its place in the path, not by the path's end).
func TestReadOnlyTrustObjectNamedExec(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "configmap", "exec", "--from-literal=marker=named-like-a-subresource")
	s := startUI(t, "--readonly", "-n", ns, "configmaps")
	s.waitFor("configmaps("+ns+")", "exec", "READ-ONLY")
	s.typeText("/exec")
	s.keys("Enter")
	s.waitFor("configmaps(" + ns + ")[1]")
	s.typeText("y")
	scr := s.waitFor("marker: named-like-a-subresource", "name: exec")
	if strings.Contains(scr, "refused") {
		t.Errorf("reading configmap exec was refused:\n%s", scr)
	}
}

// readFile is path's text ("" while it does not exist).
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}
