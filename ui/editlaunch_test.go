package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kscope/ui/verbs"
)

// TestEditorGetsChildKubeconfig: kubectl's editor, started by kscope, gets Options.Kubeconfig as its
// KUBECONFIG (in read-only mode kscope's read-only one), not kscope's own environment's; a command line
// with quotes goes through the shell with the file's path quoted, as kubectl edit does.
func TestEditorGetsChildKubeconfig(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "editor")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"kubeconfig: $KUBECONFIG $EXTRA\" >> \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", "/users/own/kubeconfig")
	for _, tt := range []struct{ name, editor, want string }{
		{"plain", script, "kubeconfig: /kscope/children/kubeconfig \n"},
		{"through the shell", "EXTRA='with quotes' " + script, "kubeconfig: /kscope/children/kubeconfig with quotes\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("KUBE_EDITOR", "")
			t.Setenv("EDITOR", tt.editor)
			a := New(Options{Cluster: fixtureCluster(), Kubeconfig: "/kscope/children/kubeconfig"})
			edited, path, err := verbs.ChildEditor(verbHost{a})([]byte("data: 1\n"))
			defer os.Remove(path)
			if err != nil || string(edited) != "data: 1\n"+tt.want {
				t.Fatalf("the editor saw %q (%v), want its KUBECONFIG to be kscope's", edited, err)
			}
			if !strings.HasSuffix(path, ".yaml") {
				t.Errorf("temporary file %s is not .yaml", path)
			}
		})
	}
}
