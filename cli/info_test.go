package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

func TestInfoNamesEveryPath(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", root)
	t.Setenv("KSCOPE_CONFIG_DIR", "")
	t.Setenv("K9S_CONFIG_DIR", "")
	k9s := filepath.Join(root, "k9s")
	if err := os.MkdirAll(k9s, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(k9s, "aliases.yaml"), []byte("aliases:\n  dp: apps/v1/deployments\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(k9s, "hotkeys.yaml"), []byte("hotKeys: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "data"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
	t.Setenv("K9S_SKIN", "")
	kubeconfig := filepath.Join(root, "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte("apiVersion: v1\nkind: Config\ncurrent-context: prod\ncontexts:\n- name: prod\n  context: {cluster: c1, user: u}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	writeFile(t, filepath.Join(k9s, "config.yaml"), "k9s:\n  ui:\n    skin: night\n")
	writeFile(t, filepath.Join(k9s, "skins", "night.yaml"), "k9s:\n  body:\n    fgColor: red\n")
	writeFile(t, filepath.Join(root, "data", "k9s", "clusters", "c1", "prod", "config.yaml"), "k9s:\n  readOnly: true\n")
	writeFile(t, filepath.Join(root, "kscope", "keys.yaml"), "keys: [\n")
	var out, errOut bytes.Buffer
	code := run([]string{"info"}, genericiooptions.IOStreams{Out: &out, ErrOut: &errOut})
	want := [][]string{
		{"WHAT", "PATH", "STATE"},
		{"config folder", root + "/kscope", "present"},
		{"k9s config folder", k9s, "read for the files kscope's lacks"},
		{"aliases", k9s + "/aliases.yaml", "read (k9s's file: kscope has none)"},
		{"hotkeys", k9s + "/hotkeys.yaml", "unusable: " + k9s + "/hotkeys.yaml: line 1: did not find expected node content"},
		{"plugins", root + "/kscope/plugins.yaml", "none"},
		{"views", root + "/kscope/views.yaml", "none"},
		{"jumps", root + "/kscope/jumps.yaml", "none"},
		{"config", k9s + "/config.yaml", "read (k9s's file: kscope has none)"},
		{"context prod", root + "/data/k9s/clusters/c1/prod/config.yaml", "read (k9s's file: kscope has none)"},
		{"keys", root + "/kscope/keys.yaml", "unusable: " + root + "/kscope/keys.yaml: line 1: did not find expected node content"},
		{"skin night", k9s + "/skins/night.yaml", "read (k9s's file: kscope has none)"},
		{"saved logs and tables (ctrl-s)", root + "/state/kscope", "written (the default; --save-dir or config.yaml's screenDumpDir chooses another)"},
	}
	var got [][]string
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		got = append(got, regexp.MustCompile(`  +`).Split(line, -1))
	}
	if code != 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s\nwant rows %q", code, errOut.String(), out.String(), want)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
