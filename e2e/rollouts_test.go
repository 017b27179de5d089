//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUIRolloutsUndo: a deployment with two image changes, each with a change-cause annotation; shift-r on it
// lists its three revisions with their causes and images, the current one marked; enter shows the diff of
// revision 1's template against the current one; u on revision 1 asks (naming the images now and after),
// and the undo restores the first template (the image kubectl reads) and its change-cause; opened again, the
// screen shows it as revision 4, current. Read-only
// mode refuses the undo before any question, the deployment left as it is.
func TestUIRolloutsUndo(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1.25")
	kubectl(t, "-n", ns, "annotate", "deployment", "web", "kubernetes.io/change-cause=first nginx 1.25")
	waitRevisions(t, ns, "1", "first nginx 1.25")
	for _, step := range []struct{ rev, image, cause string }{{"2", "nginx:1.26", "bump to 1.26"}, {"3", "nginx:1.27", "bump to 1.27"}} {
		kubectl(t, "-n", ns, "set", "image", "deployment/web", "nginx="+step.image)
		kubectl(t, "-n", ns, "annotate", "--overwrite", "deployment", "web", "kubernetes.io/change-cause="+step.cause)
		waitRevisions(t, ns, step.rev, step.cause)
	}

	s := startUI(t, "-n", ns, "deployments")
	s.waitFor("deployments("+ns+")[1]", "web")
	s.keys("R")
	scr := s.waitFor("rollouts(", "REVISION", "CHANGE-CAUSE", "first nginx 1.25", "bump to 1.26", "bump to 1.27")
	for rev, want := range map[string]string{"1 ": "nginx:1.25", "2 ": "nginx:1.26", "3 (current)": "nginx:1.27"} {
		if line := lineWith(scr, want); !strings.Contains(line, rev) {
			t.Errorf("revision %q: line %q", rev, line)
		}
	}
	s.keys("k", "k") // from the current revision (3) up to 1
	s.keys("Enter")
	s.waitFor("revision 3 (current) → 1", "-   - image: nginx:1.27", "+   - image: nginx:1.25")
	s.keys("Escape")
	s.waitFor("bump to 1.27")
	s.keys("u")
	s.waitFor("Undo deployments web to revision 1?", "images: nginx:1.27 → nginx:1.25")
	s.keys("Tab", "Enter")
	s.waitFor("undid deployments " + ns + "/web to revision 1")
	if got := kubectl(t, "-n", ns, "get", "deploy", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"); got != "nginx:1.25" {
		t.Errorf("after the undo: image %q, want nginx:1.25", got)
	}
	if got := kubectl(t, "-n", ns, "get", "deploy", "web", "-o", `jsonpath={.metadata.annotations.kubernetes\.io/change-cause}`); got != "first nginx 1.25" {
		t.Errorf("after the undo: change-cause %q, want revision 1's", got)
	}
	// Revision 1 becomes 4 once the controller has rolled back (kubectl rollout history shows it); the screen
	// does not watch: opened again, it reads it.
	waitRevisions(t, ns, "4", "first nginx 1.25")
	s.keys("Escape")
	s.waitFor("deployments(" + ns + ")[1]")
	s.keys("R")
	s.waitFor("4 (current)")

	ro := startUI(t, "--readonly", "-n", ns, "deployments")
	ro.waitFor("deployments("+ns+")[1]", "web")
	ro.keys("R")
	ro.waitFor("bump to 1.27", "4 (current)")
	ro.keys("k")
	ro.keys("u")
	ro.waitFor("read-only mode: refusing to undo deployments " + ns + "/web to revision 3")
	if got := kubectl(t, "-n", ns, "get", "deploy", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"); got != "nginx:1.25" {
		t.Errorf("read-only: image %q, want nginx:1.25 still", got)
	}
}

// waitRevisions waits until deployment web in ns is at revision rev, which kubectl rollout history shows
// with cause.
func waitRevisions(t *testing.T, ns, rev, cause string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		line := lineWith(kubectl(t, "-n", ns, "rollout", "history", "deployment/web"), cause)
		now := kubectl(t, "-n", ns, "get", "deploy", "web", "-o", `jsonpath={.metadata.annotations.deployment\.kubernetes\.io/revision}`)
		if strings.HasPrefix(line, rev+" ") && now == rev {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("deployment web never reached revision %s with %q (history line %q, revision %q)", rev, cause, line, now)
		}
	}
}

// TestUIRolloutsUndoStatefulSet: a statefulset's revisions are its ControllerRevisions: after an image
// change shift-r lists two (the second current), and u on the first restores its template.
func TestUIRolloutsUndoStatefulSet(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	manifest := `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
  annotations: {kubernetes.io/change-cause: "first busybox 1.36"}
spec:
  serviceName: db
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: "busybox:1.36", command: [sleep, "3600"]}]}
`
	file := filepath.Join(t.TempDir(), "db.yaml")
	if err := os.WriteFile(file, []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	kubectl(t, "-n", ns, "create", "-f", file)
	kubectl(t, "-n", ns, "set", "image", "statefulset/db", "db=busybox:1.37")
	// Until the controller has recorded revision 2 as the update revision, the screen could not mark it.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		second := kubectl(t, "-n", ns, "get", "controllerrevisions", "-o", "jsonpath={range .items[?(@.revision==2)]}{.metadata.name}{end}")
		update := kubectl(t, "-n", ns, "get", "sts", "db", "-o", "jsonpath={.status.updateRevision}")
		if second != "" && update == second {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the statefulset's update revision %q never became revision 2 (%q)", update, second)
		}
	}

	s := startUI(t, "-n", ns, "statefulsets")
	s.waitFor("statefulsets("+ns+")[1]", "db")
	s.keys("R")
	scr := s.waitFor("rollouts(", "busybox:1.36", "busybox:1.37")
	if line := lineWith(scr, "busybox:1.37"); !strings.Contains(line, "2 (current)") {
		t.Errorf("revision 2: line %q, want it current", line)
	}
	s.keys("k")
	s.keys("u")
	s.waitFor("Undo statefulsets db to revision 1?", "images: busybox:1.37 → busybox:1.36")
	s.keys("Tab", "Enter")
	s.waitFor("undid statefulsets " + ns + "/db to revision 1")
	if got := kubectl(t, "-n", ns, "get", "sts", "db", "-o", "jsonpath={.spec.template.spec.containers[0].image}"); got != "busybox:1.36" {
		t.Errorf("after the undo: image %q, want busybox:1.36", got)
	}
}
