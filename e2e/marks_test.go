//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// TestUIMarkedDelete: space and ctrl-space (a range) mark 3 of 4 configmaps; ctrl-d asks once, listing them; one of them is deleted
// and created again while the question is open, so its delete (the UID marked) fails and is named on the
// outcome line; the other two are deleted, the re-created one and the unmarked 4th stay.
func TestUIMarkedDelete(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	for _, name := range []string{"cm-a", "cm-b", "cm-c", "cm-d"} {
		kubectl(t, "-n", ns, "create", "configmap", name, "--from-literal=k=v")
	}
	uidB := kubectl(t, "-n", ns, "get", "configmap", "cm-b", "-o", "jsonpath={.metadata.uid}")
	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("cm-d")
	s.typeText("/^cm-")
	s.keys("Enter")
	s.waitFor("</^cm->", "configmaps("+ns+")[4]")
	s.keys("Space")
	s.waitFor("1 marked")
	s.keys("Down", "Down", "C-Space") // the range from cm-a, marked last, to cm-c
	s.waitFor("3 marked")
	s.keysUntilUID("C-d", "Delete 3 configmaps?")
	s.waitFor("Delete 3 configmaps?", ns+"/cm-a", ns+"/cm-b", ns+"/cm-c")
	if scr := s.screen(); strings.Contains(scr, ns+"/cm-d") {
		t.Fatalf("the question lists the unmarked cm-d:\n%s", scr)
	}
	kubectl(t, "-n", ns, "delete", "configmap", "cm-b")
	kubectl(t, "-n", ns, "create", "configmap", "cm-b", "--from-literal=k=again")
	s.keys("Tab", "Enter")
	s.waitFor("deleted 2 of 3 configmaps; failed: " + ns + "/cm-b (conflict: it was re-created since shown (new UID))")
	left := strings.Fields(kubectl(t, "-n", ns, "get", "configmaps", "-o", "name"))
	for _, want := range []string{"configmap/cm-b", "configmap/cm-d"} {
		if !strings.Contains(strings.Join(left, " "), want) {
			t.Errorf("%s is gone; left %q", want, left)
		}
	}
	for _, gone := range []string{"configmap/cm-a", "configmap/cm-c"} {
		if strings.Contains(strings.Join(left, " "), gone) {
			t.Errorf("%s is still there; left %q", gone, left)
		}
	}
	if uid := kubectl(t, "-n", ns, "get", "configmap", "cm-b", "-o", "jsonpath={.metadata.uid}"); uid == uidB {
		t.Errorf("cm-b was not re-created (uid %s)", uid)
	}
}
