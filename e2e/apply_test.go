//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// writeManifest writes text to a file name in a folder of t's own and returns its path.
func writeManifest(t *testing.T, dir, name, text string) string {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// configMapExists tells whether configmap name is in ns.
func configMapExists(t *testing.T, ns, name string) bool {
	t.Helper()
	out := kubectl(t, "-n", ns, "get", "configmaps", "--field-selector=metadata.name="+name, "-o", "name")
	return strings.TrimSpace(out) != ""
}

// TestApplyDryRunDiffThenConfirm: `:apply FILE` (in a folder whose name holds a space) with a new configmap
// and, in a kind List, a change to an existing one shows the server's dry run (create, change, the added line) and writes nothing; Cancel writes nothing; the
// confirmed apply writes both, field manager kscope.
func TestApplyDryRunDiffThenConfirm(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "configmap", "old", "--from-literal=color=blue")
	dir := filepath.Join(t.TempDir(), "my manifests") // the path is the rest of the line, its space too
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := writeManifest(t, dir, "objects.yaml", `apiVersion: v1
kind: ConfigMap
metadata:
  name: fresh
data:
  shape: round
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: old
  data:
    color: blue
    size: big
`)
	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("configmaps(" + ns + ")")
	s.typeText(":apply " + path)
	s.keys("Enter")
	scr := s.waitFor("1 to create", "1 to change", "create    configmaps "+ns+"/fresh", "change    configmaps "+ns+"/old")
	if !strings.Contains(lineWith(scr, "size: big"), "+ ") || !strings.Contains(lineWith(scr, "shape: round"), "+ ") {
		t.Fatalf("the dry run's added lines are not shown:\n%s", scr)
	}
	if configMapExists(t, ns, "fresh") || jsonpath(t, ns, "configmap/old", "{.data.size}") != "" {
		t.Fatal("the dry run wrote")
	}
	s.typeText("a")
	s.waitFor("Apply 2 objects (1 to create, 1 to change")
	s.keys("Enter") // Cancel has the focus
	s.waitGone("Apply 2 objects")
	if configMapExists(t, ns, "fresh") {
		t.Fatal("Cancel applied")
	}
	s.typeText("a")
	s.waitFor("Apply 2 objects")
	s.keys("Tab", "Enter")
	s.waitFor("applied: created configmaps " + ns + "/fresh, configured configmaps " + ns + "/old")
	if got := jsonpath(t, ns, "configmap/fresh", "{.data.shape}"); got != "round" {
		t.Fatalf("fresh's shape is %q", got)
	}
	if got := jsonpath(t, ns, "configmap/old", "{.data.color} {.data.size}"); got != "blue big" {
		t.Fatalf("old's data is %q", got)
	}
	for _, name := range []string{"fresh", "old"} {
		if m := managersOf(t, ns, name); !slices.Contains(m, "kscope") {
			t.Errorf("%s's managers are %q, want kscope among them", name, m)
		}
	}
}

// TestApplyConflictThenForce: a field owned by another manager (kubectl apply --server-side
// --field-manager=other) with another value is a conflict naming that manager, and nothing is written,
// even when `a` is pressed; force, asked for and confirmed, dry-runs again, and the confirmed apply writes.
func TestApplyConflictThenForce(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	owned := writeManifest(t, "", "owned.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\n  namespace: "+ns+
		"\ndata:\n  color: blue\n")
	kubectl(t, "apply", "--server-side", "--field-manager=other", "-f", owned)
	path := writeManifest(t, "", "mine.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: shared\ndata:\n  color: red\n")
	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("configmaps(" + ns + ")")
	s.typeText(":apply " + path)
	s.keys("Enter")
	s.waitFor("conflict  configmaps "+ns+"/shared", `.data.color is owned by "other"`, "1 in conflict with other")
	s.typeText("a")
	s.waitFor("not applied: conflicts with other")
	if got := jsonpath(t, ns, "configmap/shared", "{.data.color}"); got != "blue" {
		t.Fatalf("the conflict wrote: color %q", got)
	}
	s.typeText("F")
	s.waitFor("Dry-run again with force, taking the conflicting")
	s.keys("Tab", "Enter")
	scr := s.waitFor("dry run with force: nothing written yet", "1 to change")
	if !strings.Contains(lineWith(scr, "color: red"), "+ ") || !strings.Contains(lineWith(scr, "color: blue"), "- ") {
		t.Fatalf("the forced dry run's diff is not shown:\n%s", scr)
	}
	if got := jsonpath(t, ns, "configmap/shared", "{.data.color}"); got != "blue" {
		t.Fatalf("the forced dry run wrote: color %q", got)
	}
	s.typeText("a")
	s.waitFor("with force?")
	s.keys("Tab", "Enter")
	s.waitFor("applied: configured configmaps " + ns + "/shared")
	if got := jsonpath(t, ns, "configmap/shared", "{.data.color}"); got != "red" {
		t.Fatalf("the forced apply did not write: color %q", got)
	}
	if m := managersOf(t, ns, "shared"); !slices.Contains(m, "kscope") {
		t.Errorf("shared's managers are %q, want kscope among them", m)
	}
}

// TestApplyBadDocumentAppliesNothing: a file whose third document cannot be applied is refused in one line
// naming document 3, and its first two objects are not applied; a folder whose second file does not parse
// applies nothing of its first.
func TestApplyBadDocumentAppliesNothing(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	good := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  k: v\n"
	path := writeManifest(t, "", "three.yaml", strings.ReplaceAll(good, "%s", "first")+"---\n"+
		strings.ReplaceAll(good, "%s", "second")+"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {a: b}\n")
	dir := t.TempDir()
	writeManifest(t, dir, "1.yaml", strings.ReplaceAll(good, "%s", "infolder"))
	writeManifest(t, dir, "2.yml", "apiVersion: v1\nkind: ConfigMap\nmetadata: [unclosed\n")
	writeManifest(t, dir, "notes.txt", "not a manifest")
	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("configmaps(" + ns + ")")
	s.typeText(":apply " + path)
	s.keys("Enter")
	scr := s.waitFor("apply " + path + ": nothing applied: document 3: ConfigMap without metadata.name")
	if strings.Contains(scr, "document 1") || strings.Contains(scr, "document 2") {
		t.Errorf("more than document 3 is blamed:\n%s", scr)
	}
	s.typeText(":apply " + dir)
	s.keys("Enter")
	s.waitFor("apply " + dir + ": nothing applied: 2.yml: document 1: does not parse")
	for _, name := range []string{"first", "second", "infolder"} {
		if configMapExists(t, ns, name) {
			t.Errorf("configmap %s was applied", name)
		}
	}
}

// TestApplyRefusesAFIFOAndADevice: `:apply` of a FIFO nobody writes to (through a symbolic link too) and of
// /dev/zero is refused at once, in one line each, and kscope goes on answering: a manifest after them is
// dry-run.
func TestApplyRefusesAFIFOAndADevice(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	dir := t.TempDir()
	pipe := filepath.Join(dir, "p.yaml")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "l.yaml")
	if err := os.Symlink(pipe, linked); err != nil {
		t.Fatal(err)
	}
	path := writeManifest(t, dir, "fresh.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fresh\ndata:\n  k: v\n")
	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("configmaps(" + ns + ")")
	for _, c := range []struct{ path, why string }{
		{pipe, "not a regular file (a FIFO)"}, {linked, "not a regular file (a FIFO)"},
		{"/dev/zero", "not a regular file (a character device)"},
	} {
		s.typeText(":apply " + c.path)
		s.keys("Enter")
		s.waitFor("apply " + c.path + ": refused: " + c.why)
	}
	s.typeText(":apply " + path)
	s.keys("Enter")
	s.waitFor("1 to create", "create    configmaps "+ns+"/fresh")
	if configMapExists(t, ns, "fresh") {
		t.Fatal("the dry run wrote")
	}
}
