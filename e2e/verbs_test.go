//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// editorScript writes an executable shell script for EDITOR (it gets the file to edit as $1).
func editorScript(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\nset -e\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// kscopeWrites returns the create, update, patch and delete requests user's kscope sent in [from, now),
// once the audit log has caught up.
func kscopeWrites(t *testing.T, user string, from time.Time) []auditEvent {
	t.Helper()
	to := time.Now()
	waitAuditLogged(t, user)
	var writes []auditEvent
	for _, ev := range auditRequests(t, user, "kscope", from, to) {
		switch ev.Verb {
		case "create":
			if ev.ObjectRef != nil && (ev.ObjectRef.Resource == "selfsubjectaccessreviews" || ev.ObjectRef.Resource == "selfsubjectrulesreviews") {
				continue // a question, not a change
			}
			writes = append(writes, ev)
		case "update", "patch", "delete", "deletecollection":
			writes = append(writes, ev)
		}
	}
	return writes
}

func jsonpath(t *testing.T, ns, object, path string) string {
	t.Helper()
	return kubectl(t, "-n", ns, "get", object, "-o", "jsonpath="+path)
}

// TestVerbsEdit: `e` with EDITOR set to scripts, as the audited tester: a label change lands; an unchanged
// file sends nothing; invalid YAML reopens the editor with the error and the user's text; a concurrent
// change between opening and saving is a conflict the user sees, never overwritten.
func TestVerbsEdit(t *testing.T) {
	serial(t, "counts the tester's kscope writes in the audit log")
	ns := testNamespace(t)
	seedPods(t, ns)
	kubectl(t, "-n", ns, "label", "deployment", "web", "kscope-edit=before")
	marker := filepath.Join(t.TempDir(), "reopened")
	kc := env.kubeconfig
	scenarios := []struct {
		name, script, message, label string
		writes                       int
		reopened                     bool
	}{
		{"unchanged", "exit 0", "edit cancelled, no changes made", "before", 0, false},
		{"label", `sed -i 's/kscope-edit: before/kscope-edit: after/' "$1"`, "edited deployment web", "after", 1, false},
		{"invalid", `if grep -q '^# The edited file had a syntax error' "$1"; then
  touch ` + marker + `-invalid
  sed -i -e '/^  bad: \[$/d' -e 's/kscope-edit: after/kscope-edit: fixed/' "$1"
else
  printf '  bad: [\n' >> "$1"
fi`, "edited deployment web", "fixed", 1, true},
		{"conflict", `if grep -q '^# The object was changed since it was read' "$1"; then
  touch ` + marker + `-conflict
  exit 0
fi
kubectl --kubeconfig ` + kc + ` -n ` + ns + ` label deployment web concurrent=yes >/dev/null
sed -i 's/kscope-edit: fixed/kscope-edit: mine/' "$1"`, "edit cancelled, no valid changes were saved", "fixed", 1, true},
	}
	for _, sc := range scenarios {
		editor := editorScript(t, sc.name+".sh", sc.script)
		from := time.Now()
		s := startTmuxEnv(t, []string{"EDITOR=" + editor}, env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600",
			"--context", "tester", "-n", ns, "deployments")
		s.waitFor("deployments("+ns+")[1]", "web", "synced")
		s.typeUntilUID("e", sc.message)
		s.typeText("q")
		s.waitFor("KSCOPE-EXIT=0")
		writes := kscopeWrites(t, "tester", from)
		if len(writes) != sc.writes {
			t.Errorf("%s: %d writes, want %d: %s", sc.name, len(writes), sc.writes, describeRequests(writes))
		}
		for _, w := range writes {
			if w.Verb != "update" || w.ObjectRef == nil || w.ObjectRef.Resource != "deployments" {
				t.Errorf("%s: unexpected write %s %s", sc.name, w.Verb, w.URI)
			}
		}
		if got := jsonpath(t, ns, "deployment/web", "{.metadata.labels.kscope-edit}"); got != sc.label {
			t.Errorf("%s: label kscope-edit=%q, want %q", sc.name, got, sc.label)
		}
		if _, err := os.Stat(marker + "-" + sc.name); sc.reopened && err != nil {
			t.Errorf("%s: the editor was not reopened with the error at the top", sc.name)
		}
	}
	if got := jsonpath(t, ns, "deployment/web", "{.metadata.labels.concurrent}"); got != "yes" {
		t.Errorf("the concurrent change was lost: concurrent=%q", got)
	}
}

// TestVerbsScale: `s` on a deployment and on a CRD with a scale subresource sets spec.replicas through the
// scale subresource; bad counts send nothing.
func TestVerbsScale(t *testing.T) {
	serial(t, "counts the tester's kscope writes in the audit log; creates a CRD")
	ns := testNamespace(t)
	seedPods(t, ns)
	group := "verbs-" + randomSuffix() + ".example.com"
	crd := newCRD(group, "scalers", "scaler", "Scaler", "Namespaced")
	version := crd.Object["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)
	version["subresources"] = map[string]any{"scale": map[string]any{
		"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}}
	crdGVR := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	dyn := dynamic.NewForConfigOrDie(restConfig(t, "admin"))
	if _, err := dyn.Resource(crdGVR).Create(context.Background(), crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create CRD: %v", err)
	}
	t.Cleanup(func() { kubectl(t, "delete", "crd", "scalers."+group, "--wait=false") })
	waitForSeen(t, 60*time.Second, "the scaler CRD serves objects", func() (bool, string) {
		cmd := exec.Command("kubectl", "--kubeconfig", env.kubeconfig, "apply", "-f", "-")
		cmd.Stdin = strings.NewReader("apiVersion: " + group + "/v1\nkind: Scaler\nmetadata: {name: s1, namespace: " + ns +
			"}\nspec: {replicas: 1}\n")
		out, err := cmd.CombinedOutput()
		return err == nil, string(out)
	})

	from := time.Now()
	s := startUI(t, "--context", "tester", "-n", ns, "deployments")
	s.waitFor("deployments("+ns+")[1]", "web", "synced")
	for _, bad := range []string{"-1", "three", "1.5"} {
		s.typeUntilUID("s", "scale deployments web (now 2) to:")
		s.typeText(bad)
		s.keys("Enter")
		s.waitFor("not a replica count: \"" + bad + "\"")
	}
	s.typeText("s")
	s.waitFor("(now 2) to:")
	s.typeText("3")
	s.keys("Enter")
	s.waitFor("Scale deployments web from 2 to")
	s.keys("Tab")
	s.keys("Enter")
	s.waitFor("scaled deployments " + ns + "/web to 3")
	waitForSeen(t, 60*time.Second, "the table shows 3 replicas", func() (bool, string) {
		scr := s.screen()
		return strings.Contains(lineWith(scr, "web"), "3/3"), scr
	})

	s.typeText(":scalers." + group)
	s.keys("Enter")
	s.waitFor("scalers("+ns+")[1]", "s1", "synced")
	s.typeUntilUID("s", "scale scalers s1 (now 1) to:")
	s.typeText("4")
	s.keys("Enter")
	s.keys("Tab")
	s.keys("Enter")
	s.waitFor("scaled scalers " + ns + "/s1 to 4")
	if got := jsonpath(t, ns, "scalers."+group+"/s1", "{.spec.replicas}"); got != "4" {
		t.Errorf("scaler s1 has spec.replicas %q, want 4", got)
	}
	if got := jsonpath(t, ns, "deployment/web", "{.spec.replicas}"); got != "3" {
		t.Errorf("deployment web has spec.replicas %q, want 3", got)
	}
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
	writes := kscopeWrites(t, "tester", from)
	if len(writes) != 2 {
		t.Errorf("%d writes, want the 2 scales: %s", len(writes), describeRequests(writes))
	}
	for _, w := range writes {
		if w.Verb != "patch" || w.ObjectRef == nil || w.ObjectRef.Subresource != "scale" {
			t.Errorf("a write other than a scale: %s %s", w.Verb, w.URI)
		}
	}
}

// TestVerbsRestart: `r` on a deployment is kubectl rollout restart: a new ReplicaSet, the pods replaced, the
// new ReplicaSet live in kscope's table.
func TestVerbsRestart(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	seedPods(t, ns)
	before := strings.Fields(kubectl(t, "-n", ns, "get", "pods", "-l", "app=web", "-o", "name"))
	s := startUI(t, "-n", ns, "deployments")
	s.waitFor("deployments("+ns+")[1]", "web", "synced")
	s.typeUntilUID("r", "Restart deployments web?")
	s.keys("Tab")
	s.keys("Enter")
	s.waitFor("restarted deployments " + ns + "/web: rollout started")
	if at := jsonpath(t, ns, "deployment/web", `{.spec.template.metadata.annotations.kubectl\.kubernetes\.io/restartedAt}`); at == "" {
		t.Fatal("no restartedAt annotation on the pod template")
	}
	s.typeText(":rs")
	s.keys("Enter")
	s.waitFor("replicasets(" + ns + ")[2]")
	waitForSeen(t, 90*time.Second, "every pod of web replaced", func() (bool, string) {
		now := kubectl(t, "-n", ns, "get", "pods", "-l", "app=web", "-o", "name", "--field-selector=status.phase=Running")
		for _, p := range before {
			if strings.Contains(now, p) {
				return false, now
			}
		}
		return strings.Count(now, "\n") == 2, now
	})
}

// TestVerbsReadOnlyAndNotPermitted: as the viewer, allowed to read and update deployments in the test's
// namespace only, kscope names the verbs it may not use, and pressing them sends nothing; edit, which it
// may use, lands.
func TestVerbsReadOnlyAndNotPermitted(t *testing.T) {
	serial(t, "counts the viewer's and tester's kscope requests in the audit log")
	ns := testNamespace(t)
	seedPods(t, ns)
	kubectl(t, "-n", ns, "create", "role", "deploy-editor", "--verb=get,list,watch,update", "--resource=deployments")
	kubectl(t, "-n", ns, "create", "rolebinding", "viewer-edits-deployments", "--role=deploy-editor", "--user=viewer")
	editor := editorScript(t, "label.sh", `sed -i 's/^  labels:$/  labels:\n    by: viewer/' "$1"`)
	from := time.Now()
	s := startTmuxEnv(t, []string{"EDITOR=" + editor}, env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600",
		"--context", "viewer", "-n", ns, "deployments")
	s.waitFor("deployments("+ns+")[1]", "web", "synced", "not permitted: scale, restart, delete")
	s.keys("C-d")
	s.waitFor(fmt.Sprintf("not permitted: you may not delete deployments %s/web", ns))
	s.typeText("s")
	s.waitFor(fmt.Sprintf("not permitted: you may not scale deployments %s/web", ns))
	s.typeText("r")
	s.waitFor(fmt.Sprintf("not permitted: you may not restart deployments %s/web", ns))
	s.typeText("?")
	s.waitFor("not permitted: delete the object")
	s.keys("Escape")
	s.waitFor("deployments(" + ns + ")[1]")
	s.typeUntilUID("e", "edited deployment web")
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
	writes := kscopeWrites(t, "viewer", from)
	if len(writes) != 1 || writes[0].Verb != "update" {
		t.Errorf("viewer's writes: %s, want the one update", describeRequests(writes))
	}
	if got := jsonpath(t, ns, "deployment/web", "{.metadata.labels.by}"); got != "viewer" {
		t.Errorf("label by=%q, want viewer", got)
	}
}
