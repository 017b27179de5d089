package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAliasesK9sFormAndFallback(t *testing.T) {
	root := t.TempDir()
	d := Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s")}
	if a, f, err := LoadAliases(d); err != nil || len(a) != 0 || f.From != "" || f.Path != filepath.Join(d.KScope, "aliases.yaml") {
		t.Fatalf("no files: %v %+v %v", a, f, err)
	}
	write(t, d.K9s, "aliases.yaml", "aliases:\n  dp: apps/v1/deployments\n  pp: v1/pods\n  crb: rbac.authorization.k8s.io/v1/clusterrolebindings\n  sh: pods shop,web\n")
	a, f, err := LoadAliases(d)
	want := Aliases{"dp": "deployments.apps", "pp": "pods", "crb": "clusterrolebindings.rbac.authorization.k8s.io", "sh": "pods shop,web"}
	if err != nil || !reflect.DeepEqual(a, want) || f.From != "k9s" {
		t.Fatalf("k9s's file: %v %+v %v, want %v", a, f, err, want)
	}
	write(t, d.KScope, "aliases.yaml", "aliases:\n  d: deploy\n")
	if a, f, err := LoadAliases(d); err != nil || !reflect.DeepEqual(a, Aliases{"d": "deploy"}) || f.From != "kscope" {
		t.Fatalf("kscope's file wins: %v %+v %v", a, f, err)
	}
}

func TestBrokenFilesAreOneProblem(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"aliases.yaml", "aliases:\n  dp: apps/v1/deployments\n   bad: [\n", "aliases.yaml: line 3: mapping values are not allowed in this context"},
		{"aliases.yaml", "aliases: [1, 2]\n", "aliases.yaml: line 1: aliases: want a mapping, not array"},
		{"aliases.yaml", "aliases:\n  two words: pods\n", `aliases.yaml: alias "two words" → "pods": an alias is one word for a non-empty command`},
		{"hotkeys.yaml", "hotKeys:\n  pods:\n    description: no key\n    command: pods\n", `hotkeys.yaml: hotkey "pods" needs a shortCut and a command`},
	} {
		dir := t.TempDir()
		write(t, dir, tc.name, tc.text)
		d := Dirs{KScope: dir}
		var err error
		if tc.name == "aliases.yaml" {
			_, _, err = LoadAliases(d)
		} else {
			_, _, err = LoadHotKeys(d)
		}
		if err == nil || err.Error() != filepath.Join(dir, tc.want) {
			t.Errorf("%s %q: error %v\nwant %s", tc.name, tc.text, err, filepath.Join(dir, tc.want))
		}
	}
}

func TestHotKeysK9sFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hotkeys.yaml", `hotKeys:
  shift-0:
    shortCut: Shift-0
    description: Viewing pods
    command: pods
    keepHistory: true
  deploys:
    shortCut: Ctrl-U
    command: apps/v1/deployments
    override: true
`)
	got, f, err := LoadHotKeys(Dirs{K9s: dir})
	want := []HotKey{
		{Name: "deploys", ShortCut: "Ctrl-U", Command: "deployments.apps", Override: true},
		{Name: "shift-0", ShortCut: "Shift-0", Description: "Viewing pods", Command: "pods"},
	}
	if err != nil || !reflect.DeepEqual(got, want) || f.From != "k9s" {
		t.Fatalf("%+v %+v %v\nwant %+v", got, f, err, want)
	}
}
