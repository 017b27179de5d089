//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// TestUIPulseShowsRelistAndReconnect: bin/kscope (in tmux) watches ConfigMaps through a proxy; `i` opens the
// table's pulse: its first LIST (rows, bytes), the watch open, no relist or reconnect, the events a patch
// sends. The proxy then refuses new connections and kube-apiserver restarts; while kscope is cut off the
// ConfigMaps change and etcd is compacted, so that when the proxy lets it through again the resumed watch
// ends with 410 Gone. The pulse then counts one relist and at least one reconnect, with the 410 as the cause,
// and the table's status line says so in its compact form.
func TestUIPulseShowsRelistAndReconnect(t *testing.T) {
	serial(t, "compacts etcd")
	ns := testNamespace(t)
	cfg := restConfig(t, "admin")
	cs := kubernetes.NewForConfigOrDie(cfg)
	ctx := context.Background()
	for i := range 5 {
		createConfigMap(t, cs, ns, fmt.Sprintf("cm-%d", i), "x")
	}
	proxy := startProxy(t, cfg)
	ui := startUI(t, "--kubeconfig", proxyKubeconfig(t, "https://"+proxy.addr), "--context", "proxy", "-n", ns, "configmaps")
	ui.waitFor("configmaps("+ns+")[6]", "synced", "pulse no events yet") // kube-root-ca.crt too

	ui.keys("i")
	scr := ui.waitFor("pulse configmaps", "open for", "first LIST")
	first := lineWith(scr, "first LIST")
	if !regexp.MustCompile(`, \d+(\.\d)? (KiB|bytes)`).MatchString(first) || !strings.Contains(first, "6 rows") {
		t.Errorf("first LIST line %q, want its bytes and 6 rows", first)
	}
	for _, want := range []string{"relists          0", "reconnects       0", "lists            1 (0 failed)"} {
		if !strings.Contains(scr, want) {
			t.Errorf("pulse before the restart lacks %q:\n%s", want, scr)
		}
	}
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "cm-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data["v"] = "1"
	if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	ui.waitUntil("the update counted as an event", func(s string) bool {
		return strings.Contains(lineWith(s, "events"), "· 1 in all")
	})

	proxy.refuseNew()
	start := stopAPIServer(t)
	ui.waitFor("not open")
	start()
	for i := range 2 { // changes kscope cannot see, so that its resourceVersion is compacted away
		if err := cs.CoreV1().ConfigMaps(ns).Delete(ctx, fmt.Sprintf("cm-%d", i), metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		createConfigMap(t, cs, ns, fmt.Sprintf("new-%d", i), "x")
	}
	devcluster(t, "compact")
	proxy.setCut(false)

	scr = ui.waitUntil("a relist caused by the 410", func(s string) bool {
		return valueOf(s, "relists") == "1" && valueOf(s, "reconnects") != "0" && strings.Contains(s, "open for")
	})
	if cause := lineAfter(scr, "relists"); !strings.Contains(cause, "too old resource version") {
		t.Errorf("relist cause %q, want the 410 (too old resource version)", cause)
	}
	if cause := lineAfter(scr, "reconnects"); !strings.Contains(cause, "too old resource version") {
		t.Errorf("the newest reconnect cause %q does not name the 410", cause)
	}
	if last := lineWith(scr, "last LIST"); !strings.Contains(last, "6 rows") {
		t.Errorf("last LIST %q, want the 6 ConfigMaps now on the server", last)
	}
	t.Logf("pulse after the restart:\n%s", scr)

	ui.keys("Escape")
	ui.waitUntil("the compact pulse with the relist", func(s string) bool {
		return strings.Contains(s, "configmaps("+ns+")[6]") && strings.Contains(s, "1 relist(s)") &&
			strings.Contains(s, "reconnect(s)")
	})
}

// valueOf returns what follows name on the screen line that starts with it (in the pulse view's box).
func valueOf(screen, name string) string {
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimLeft(l, "║│ ")
		if strings.HasPrefix(l, name+" ") {
			return strings.TrimRight(strings.TrimSpace(strings.TrimPrefix(l, name)), "║│ ")
		}
	}
	return ""
}

// lineAfter returns the screen line below the one that starts with name (its first cause), trimmed.
func lineAfter(screen, name string) string {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, "║│ "), name+" ") && i+1 < len(lines) {
			return strings.Trim(lines[i+1], "║│ ")
		}
	}
	return ""
}

// proxyKubeconfig writes a copy of the devcluster kubeconfig with a context "proxy": the admin user on a
// cluster at server (the admin cluster's CA), and returns the file's path.
func proxyKubeconfig(t *testing.T, server string) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	admin := cfg.Contexts["admin"]
	cluster := *cfg.Clusters[admin.Cluster]
	cluster.Server = server
	cfg.Clusters["proxy"] = &cluster
	cfg.Contexts["proxy"] = &clientcmdapi.Context{Cluster: "proxy", AuthInfo: admin.AuthInfo}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}
