//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUIK9sConfigFiles starts kscope with only k9s's files in XDG_CONFIG_HOME: its alias, its plugin (with
// $NAMESPACE and $NAME) and its hotkey work as in k9s; then with a broken aliases.yaml, which is one line naming the file and line, and kscope works.
func TestUIK9sConfigFiles(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "configmap", "kscope-config-e2e", "--from-literal=a=b")
	home := t.TempDir()
	k9s := filepath.Join(home, "k9s")
	writeFile(t, filepath.Join(k9s, "aliases.yaml"), "aliases:\n  kcm: v1/configmaps\n")
	writeFile(t, filepath.Join(k9s, "hotkeys.yaml"), "hotKeys:\n  shift-0:\n    shortCut: Shift-0\n    description: Viewing pods\n    command: pods\n")
	out := filepath.Join(home, "plugin-out")
	writeFile(t, filepath.Join(k9s, "plugins.yaml"), "plugins:\n  note:\n    shortCut: Shift-K\n    scopes: [cm]\n"+
		"    background: true\n    command: sh\n    args: [-c, 'echo \"$0 $1\" > "+out+"', $NAMESPACE, $NAME]\n")
	s := startTmuxEnv(t, []string{"XDG_CONFIG_HOME=" + home}, env.kscope, "; sleep 600", "-n", ns)
	s.waitFor("Namespace: " + ns)
	s.keys(":")
	s.typeText("kcm")
	s.keys("Enter")
	s.waitFor("configmaps("+ns+")", "kscope-config-e2e")
	s.keys("/")
	s.typeText("config-e2e")
	s.keys("Enter")
	s.waitFor("configmaps(" + ns + ")[1]")
	s.typeText("K") // the plugin, with the selected configmap's variables
	s.waitFor("plugin note done")
	if data, err := os.ReadFile(out); err != nil || string(data) != ns+" kscope-config-e2e\n" {
		t.Fatalf("the plugin wrote %q (%v)", data, err)
	}
	s.typeText(")") // Shift-0
	s.waitFor("pods(" + ns + ")[0]")

	writeFile(t, filepath.Join(k9s, "aliases.yaml"), "aliases:\n  kcm: v1/configmaps\n   broken: [\n")
	b := startTmuxEnv(t, []string{"XDG_CONFIG_HOME=" + home}, env.kscope, "; sleep 600", "-n", ns, "configmaps")
	b.waitFor("config: "+filepath.Join(k9s, "aliases.yaml")+": line 3:", "kscope-config-e2e")
	b.typeText(")") // the hotkeys file still works
	b.waitFor("pods(" + ns + ")[0]")
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
