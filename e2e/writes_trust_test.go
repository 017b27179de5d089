//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/kube"
)

// createSettledDeployment creates deployment web with replicas and waits until its controller has
// observed it (status.observedGeneration caught up and the replicas counted), so that nothing but the
// test changes it afterwards.
func createSettledDeployment(t *testing.T, ns, replicas string) {
	t.Helper()
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1.27", "--replicas="+replicas)
	waitSettled(t, ns, replicas)
}

// waitSettled waits until deployment web's controller has observed its last change and counts replicas
// ready: from then on its resourceVersion holds still.
func waitSettled(t *testing.T, ns, replicas string) {
	t.Helper()
	waitForSeen(t, 60*time.Second, "deployment web settled", func() (bool, string) {
		got := jsonpath(t, ns, "deployment/web", "{.metadata.generation} {.status.observedGeneration} {.status.replicas} {.status.readyReplicas}")
		f := strings.Fields(got)
		return len(f) == 4 && f[0] == f[1] && f[2] == replicas && f[3] == replicas, got
	})
}

// TestWritesScaleConflict: the scale dialog is open when someone else (kubectl, as an autoscaler would)
// scales the deployment; confirming in kscope sends the scale with the resourceVersion the dialog read,
// the server answers Conflict, the status line says so in one line, and the other change is kept.
func TestWritesScaleConflict(t *testing.T) {
	serial(t, "counts the tester's kscope writes in the audit log")
	ns := testNamespace(t)
	createSettledDeployment(t, ns, "2")
	s := startUI(t, "--context", "tester", "-n", ns, "deployments")
	s.waitFor("deployments("+ns+")[1]", "web", "synced")
	from := time.Now()
	s.typeUntilUID("s", "scale deployments web (now 2) to:")
	kubectl(t, "-n", ns, "scale", "deployment", "web", "--replicas=7")
	s.typeText("5")
	s.keys("Enter")
	s.waitFor("Scale deployments web from 2 to 5")
	s.keys("Tab")
	s.keys("Enter")
	s.waitFor("not scaling deployments " + ns + "/web: conflict: replicas changed since the dialog (2 then, 7 now); nothing written")
	if got := jsonpath(t, ns, "deployment/web", "{.spec.replicas}"); got != "7" {
		t.Errorf("spec.replicas %q, want the other change's 7 kept", got)
	}
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
	writes := kscopeWrites(t, "tester", from)
	if len(writes) != 1 || writes[0].ObjectRef == nil || writes[0].ObjectRef.Subresource != "scale" ||
		writes[0].ResponseStatus == nil || writes[0].ResponseStatus.Code != 409 {
		t.Errorf("kscope's writes: %s, want the one scale, answered 409", describeRequests(writes))
	}
}

// TestWritesViewOfDeletedObject: the YAML view of a deployment that is then deleted refuses edit, scale
// and restart in one line; a deployment re-created under the same name is untouched, and kscope sent no
// write at all.
func TestWritesViewOfDeletedObject(t *testing.T) {
	serial(t, "counts the tester's kscope writes in the audit log")
	ns := testNamespace(t)
	createSettledDeployment(t, ns, "2")
	editor := editorScript(t, "label.sh", `sed -i 's/^  labels:$/  labels:\n    edited: by-kscope/' "$1"`)
	s := startTmuxEnv(t, []string{"EDITOR=" + editor}, env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600",
		"--context", "tester", "-n", ns, "deployments")
	s.waitFor("deployments("+ns+")[1]", "web", "synced")
	from := time.Now()
	s.keys("y") // (Enter drills down to the pods)
	s.waitFor("kind: Deployment", "live")
	kubectl(t, "-n", ns, "delete", "deployment", "web", "--wait=true")
	s.waitFor("/web (deleted)", "deleted  managedFields") // the title and the status line: the view knows
	for _, key := range []string{"e", "s", "r"} {
		s.typeText(key)
		s.waitFor("deployments " + ns + "/web was deleted: nothing to act on")
		if scr := s.screen(); strings.Contains(scr, "to:") || strings.Contains(scr, "Restart deployments web?") {
			t.Fatalf("%s opened a prompt on the deleted object:\n%s", key, scr)
		}
	}
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1.27", "--replicas=1")
	newUID := jsonpath(t, ns, "deployment/web", "{.metadata.uid}")
	s.waitFor("uid: " + newUID) // the view follows the name: the new object is the one shown now
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
	if got := jsonpath(t, ns, "deployment/web", "{.spec.replicas} {.metadata.labels.edited} {.spec.template.metadata.annotations}"); got != "1  " {
		t.Errorf("the re-created deployment was changed: %q", got)
	}
	if writes := kscopeWrites(t, "tester", from); len(writes) != 0 {
		t.Errorf("kscope wrote: %s", describeRequests(writes))
	}
}

// TestWritesPreconditionsOnTheServer: kube.Cluster's writes carry their preconditions as the real API
// server checks them: a scale from a stale read, and a restart or scale of a deployment deleted and
// re-created under the same name, are answered Conflict and change nothing; fresh ones land.
func TestWritesPreconditionsOnTheServer(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	createSettledDeployment(t, ns, "2")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	kc, err := kube.Connect(ctx, configFlags(t, "admin", nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer kc.Close()
	res, err := kc.Catalog().Resolve(ctx, "deployments")
	if err != nil {
		t.Fatal(err)
	}
	gvr := res.GVR()
	old, err := kc.Replicas(ctx, gvr, ns, "web")
	if err != nil || old.UID == "" || old.ResourceVersion == "" || old.Replicas != 2 {
		t.Fatalf("Replicas: %+v, %v", old, err)
	}
	kubectl(t, "-n", ns, "scale", "deployment", "web", "--replicas=7")
	waitSettled(t, ns, "7") // so that the fresh read below is not made stale by the controller
	if err := kc.Scale(ctx, gvr, ns, "web", 5, old.Precondition); !apierrors.IsConflict(err) {
		t.Errorf("scale from a stale read: %v, want a Conflict", err)
	}
	fresh, err := kc.Replicas(ctx, gvr, ns, "web")
	if err != nil || fresh.Replicas != 7 {
		t.Fatalf("Replicas after the other scale: %+v, %v", fresh, err)
	}
	if err := kc.Scale(ctx, gvr, ns, "web", 3, fresh.Precondition); err != nil {
		t.Errorf("scale from a fresh read: %v", err)
	}

	kubectl(t, "-n", ns, "delete", "deployment", "web", "--wait=true")
	kubectl(t, "-n", ns, "create", "deployment", "web", "--image=nginx:1.27", "--replicas=1")
	at := time.Now()
	if err := kc.Restart(ctx, gvr, ns, "web", at, cluster.Precondition{UID: old.UID}); !apierrors.IsConflict(err) {
		t.Errorf("restart of the re-created deployment by the old UID: %v, want a Conflict", err)
	}
	if err := kc.Scale(ctx, gvr, ns, "web", 4, cluster.Precondition{UID: old.UID}); !apierrors.IsConflict(err) {
		t.Errorf("scale of the re-created deployment by the old UID: %v, want a Conflict", err)
	}
	if got := jsonpath(t, ns, "deployment/web", "{.spec.replicas} {.spec.template.metadata.annotations}"); got != "1 " {
		t.Errorf("the re-created deployment was changed: %q", got)
	}
	newUID := jsonpath(t, ns, "deployment/web", "{.metadata.uid}")
	if err := kc.Restart(ctx, gvr, ns, "web", at, cluster.Precondition{UID: types.UID(newUID)}); err != nil {
		t.Errorf("restart by the UID of the object there: %v", err)
	}
}
