//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// kubeconfigWithUsers writes a copy of the devcluster kubeconfig with one more context per entry of users,
// named after it, for that user on the admin context's cluster in namespace ns, and returns the file's path.
func kubeconfigWithUsers(t *testing.T, ns string, users map[string]*clientcmdapi.AuthInfo) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	for name, user := range users {
		cfg.AuthInfos[name] = user
		cfg.Contexts[name] = &clientcmdapi.Context{Cluster: cfg.Contexts["admin"].Cluster, AuthInfo: name, Namespace: ns}
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// execPluginKubeconfig writes a copy of the devcluster kubeconfig with two more contexts whose users get
// their credentials from an exec plugin (testdata): "plugin" (talks on stderr, returns the admin token) and
// "plugin-fails" (talks on stderr, exits 1). It returns the file's path.
func execPluginKubeconfig(t *testing.T) string {
	t.Helper()
	token := restConfig(t, "admin").BearerToken
	users := map[string]*clientcmdapi.AuthInfo{}
	for name, script := range map[string]string{"plugin": "exec-plugin.sh", "plugin-fails": "exec-plugin-fails.sh"} {
		users[name] = &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{
			APIVersion: "client.authentication.k8s.io/v1", Command: filepath.Join(env.root, "e2e", "testdata", script),
			Env:             []clientcmdapi.ExecEnvVar{{Name: "KSCOPE_TEST_TOKEN", Value: token}},
			InteractiveMode: clientcmdapi.IfAvailableExecInteractiveMode,
		}}
	}
	return kubeconfigWithUsers(t, "shop", users)
}

// TestExecCredentialPlugin: with a kubeconfig user whose credentials come from an exec plugin, kscope works;
// what the plugin writes on stderr reaches the prompt line and never draws over the screen (the header is the
// first line, the table's border intact). A plugin that fails ends kscope with its message and one error line,
// before the screen changes.
func TestExecCredentialPlugin(t *testing.T) {
	parallel(t)
	kubeconfig := execPluginKubeconfig(t)
	ui := startUI(t, "--kubeconfig", kubeconfig, "--context", "plugin", "pods")
	scr := ui.waitFor("pods(shop)[", "synced")
	lines := strings.Split(scr, "\n")
	if !strings.HasPrefix(lines[0], "Context: plugin") {
		t.Errorf("the first line is not the header (stderr drawn over the screen?):\n%s", scr)
	}
	for i, l := range lines {
		if strings.Contains(l, "exec plugin:") && i < len(lines)-3 {
			t.Errorf("the plugin's message is drawn on screen line %d, not on the prompt line:\n%s", i, scr)
		}
	}
	ui.keys("C-c")
	ui.waitFor("KSCOPE-EXIT=0")

	fails := startShellUI(t, "--kubeconfig", kubeconfig, "--context", "plugin-fails", "pods")
	fails.waitFor("KSCOPE-EXIT=")
	out := joinedScreen(t, fails)
	out = out[:strings.Index(out, "KSCOPE-EXIT=")]
	if m := exitLine.FindStringSubmatch(joinedScreen(t, fails)); m == nil || m[1] == "0" {
		t.Errorf("a failing plugin: exit %v, want non-zero", m)
	}
	if !strings.Contains(out, "exec plugin: login required") || strings.Count(out, "error: ") != 1 ||
		strings.Contains(out, "goroutine ") {
		t.Errorf("a failing plugin: want its message and one error line, no stack:\n%s", out)
	}
	checkRestoredTerminal(t, fails)
}
