//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// clusterRole creates a ClusterRole called name and deletes it when t ends.
func clusterRole(t *testing.T, cs kubernetes.Interface, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cr := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kscope-e2e": "true"}}}
	if _, err := cs.RbacV1().ClusterRoles().Create(ctx, cr, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create clusterrole %q: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := cs.RbacV1().ClusterRoles().Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("delete clusterrole %q: %v", name, err)
		}
	})
}

// TestPluginsTrust: a real k9s config folder (K9S_CONFIG_DIR: plugins.yaml, a plugins/ file and the admin
// context's clusters/CLUSTER/admin/plugins.yaml) on the devcluster. A plugin `bash -c "echo '$NAME' > FILE"`
// on a ClusterRole named with quotes, ';' and $( ) is refused on the prompt line, naming the plugin and the
// variable, and runs nothing (no FILE, none of the name's commands); a plugin that reads the name from its
// environment writes it as text; on an ordinary name the same plugin works; the context's plugin runs; a
// background plugin and what it started are gone once kscope has quit.
func TestPluginsTrust(t *testing.T) {
	serial(t, "creates two ClusterRoles (cluster-wide objects every clusterroles list sees)")
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	sfx := randomSuffix()
	evil := "kscope-e2e-" + sfx + " x'; touch pwned1; echo '$(touch pwned2)"
	safe := "kscope-e2e-safe-" + sfx
	clusterRole(t, cs, evil)
	clusterRole(t, cs, safe)
	cfg, err := clientcmd.LoadFromFile(env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cluster := strings.NewReplacer(":", "-", "/", "-").Replace(cfg.Contexts["admin"].Cluster)

	home, work := t.TempDir(), t.TempDir() // work: the plugins' working directory, where the name's commands would write
	k9s := filepath.Join(home, "k9s")
	out := func(name string) string { return filepath.Join(home, name) }
	writeFile(t, filepath.Join(k9s, "plugins.yaml"), fmt.Sprintf(`plugins:
  say-name:
    shortCut: Shift-K
    scopes: [clusterroles]
    background: true
    command: bash
    args: [-c, "echo '$NAME' > %s"]
  say-name-dq:
    shortCut: Shift-U
    scopes: [clusterroles]
    background: true
    command: bash
    args: [-c, 'echo "$NAME" > %s']
  sleeper:
    shortCut: Shift-Z
    scopes: [clusterroles]
    background: true
    command: bash
    args: [-c, 'echo $$ > %s; sleep 300 & echo $! >> %s; wait']
`, out("single"), out("double"), out("pids"), out("pids")))
	writeFile(t, filepath.Join(k9s, "plugins", "env-name.yaml"), fmt.Sprintf(`shortCut: Shift-X
scopes: [clusterroles]
background: true
command: bash
args: [-c, 'printf "%%s" "$(printenv NAME)" > %s']
`, out("env")))
	writeFile(t, filepath.Join(k9s, "clusters", cluster, "admin", "plugins.yaml"), fmt.Sprintf(`plugins:
  ctx-note:
    shortCut: Shift-Y
    scopes: [all]
    background: true
    command: bash
    args: [-c, "echo $CONTEXT $CLUSTER > %s"]
`, out("ctx")))
	environ := []string{"-C", work, "K9S_CONFIG_DIR=" + k9s, "KSCOPE_CONFIG_DIR=" + filepath.Join(home, "kscope")}
	s := startTmuxEnv(t, environ, env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600", "--context", "admin", "clusterroles")
	s.waitFor("clusterroles", "synced")
	s.keys("/")
	s.typeText("touch pwned1")
	s.keys("Enter")
	s.waitFor("kscope-e2e-"+sfx+" x'", "</touch pwned1>")
	s.typeText("K")
	s.waitFor(`plugin say-name not run: $NAME holds ' ', which a shell could read as code`)
	s.typeText("U")
	s.waitFor(`plugin say-name-dq not run: $NAME holds ' '`)
	s.typeText("X")
	s.waitFor("plugin env-name done")
	if data, err := os.ReadFile(out("env")); err != nil || string(data) != evil {
		t.Errorf("the plugin that reads NAME from its environment wrote %q (%v), want %q", data, err, evil)
	}
	s.keys("Escape")
	s.waitGone("</touch pwned1>") // the filter is gone (a key right after esc would make it alt-key)
	s.keys("/")
	s.typeText(safe)
	s.keys("Enter")
	s.waitFor(safe, "clusterroles[1]")
	s.typeText("K")
	s.waitFor("plugin say-name done")
	if data, err := os.ReadFile(out("single")); err != nil || string(data) != safe+"\n" {
		t.Errorf("say-name on %s wrote %q (%v)", safe, data, err)
	}
	s.typeText("Y")
	s.waitFor("plugin ctx-note done")
	if data, err := os.ReadFile(out("ctx")); err != nil || string(data) != "admin "+cfg.Contexts["admin"].Cluster+"\n" {
		t.Errorf("the context's plugin wrote %q (%v)", data, err)
	}
	s.typeText("Z")
	pids := waitPids(t, out("pids"))
	s.keys("C-c")
	s.waitFor("KSCOPE-EXIT=0")
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for running(t, pid) {
			if time.Now().After(deadline) {
				t.Fatalf("the background plugin's process %d outlived kscope", pid)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	left, _ := os.ReadDir(work)
	_, errDouble := os.Stat(out("double"))
	if len(left) != 0 || errDouble == nil {
		t.Errorf("the ClusterRole's name ran as code: %v in the working directory, double-quoted file made: %v", left, errDouble == nil)
	}
}

// waitPids waits for the two pids the sleeper plugin writes to path.
func waitPids(t *testing.T, path string) []int {
	t.Helper()
	deadline := time.Now().Add(uiScreenTimeout)
	for {
		data, _ := os.ReadFile(path)
		var pids []int
		for _, f := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(f); err == nil {
				pids = append(pids, n)
			}
		}
		if len(pids) == 2 {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sleeper plugin wrote %q", data)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
