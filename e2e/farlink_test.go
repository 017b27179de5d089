//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
)

// farLink is bench/cmd/farlink, kscope's far-link proxy, in front of the devcluster's API server: started for
// one test, stopped when it ends.
type farLink struct {
	t          *testing.T
	control    string // its control endpoint's address
	kubeconfig string // the devcluster's kubeconfig with context admin's server reached through the link
}

// startFarLink builds and starts farlink with args (--delay, --rate) in front of context admin's server.
func startFarLink(t *testing.T, args ...string) *farLink {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "farlink")
	build := exec.Command("go", "build", "-o", bin, "./bench/cmd/farlink")
	build.Dir = env.root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build farlink: %v\n%s", err, out)
	}
	raw, err := clientcmd.LoadFromFile(env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cluster := raw.Clusters[raw.Contexts["admin"].Cluster]
	server, err := url.Parse(cluster.Server)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"--target", server.Host, "--listen", "127.0.0.1:0", "--control", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start farlink: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	l := &farLink{t: t}
	var proxy string
	sc := bufio.NewScanner(stdout)
	for (proxy == "" || l.control == "") && sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "farlink: control on "); ok {
			l.control = rest
		}
		if rest, ok := strings.CutPrefix(line, "farlink: listening on "); ok {
			proxy, _, _ = strings.Cut(rest, " ")
		}
	}
	if proxy == "" || l.control == "" {
		t.Fatalf("farlink did not start (proxy %q, control %q)", proxy, l.control)
	}
	server.Host = proxy
	cluster.Server = server.String()
	raw.CurrentContext = "admin"
	l.kubeconfig = filepath.Join(dir, "far.kubeconfig")
	if err := clientcmd.WriteToFile(*raw, l.kubeconfig); err != nil {
		t.Fatal(err)
	}
	return l
}

// post asks the link's control endpoint for a fault (drop, stall?for=…).
func (l *farLink) post(what string) {
	l.t.Helper()
	resp, err := http.Post("http://"+l.control+"/"+what, "", nil)
	if err != nil {
		l.t.Fatalf("farlink %s: %v", what, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		l.t.Fatalf("farlink %s: %s", what, resp.Status)
	}
}

// farStats are the link's counts (bench/cmd/farlink's Stats).
type farStats struct {
	Connections int64 `json:"connections"`
	Open        int64 `json:"open"`
}

func (l *farLink) stats() farStats {
	l.t.Helper()
	resp, err := http.Get("http://" + l.control + "/stats")
	if err != nil {
		l.t.Fatalf("farlink stats: %v", err)
	}
	defer resp.Body.Close()
	var s farStats
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		l.t.Fatalf("farlink stats: %v", err)
	}
	return s
}

// TestFarLinkDropAndStallKeepRows: kscope shows a namespace's pods through a far link (50 ms each way,
// 50 Mbit/s) over one connection. The link drops every connection and then forwards nothing for 15 s (a
// VPN that went away and comes back), while a pod is created. Meanwhile the table keeps its rows and says
// "reconnecting"; once the link forwards again it completes by itself (the new pod shown, synced), and
// kscope is back to one open connection: none of the attempts made during the outage is left open.
func TestFarLinkDropAndStallKeepRows(t *testing.T) {
	parallel(t) // its faults are its own link's, its namespace its own
	ns := testNamespace(t)
	seedPods(t, ns)
	link := startFarLink(t, "--delay", "50ms", "--rate", "50mbit")
	ui := startUI(t, "--kubeconfig", link.kubeconfig, "-n", ns, "pods")
	ui.waitFor("pods("+ns+")[3]", "synced  3/3")
	waitOpen(t, link, 1, "before the outage")

	link.post("drop")
	link.post("stall?for=15s")
	out := time.Now()
	kubectl(t, "-n", ns, "run", "during", "--image=nginx:1.27")
	scr := ui.waitFor("reconnecting")
	if names := screenPodNames(scr); len(names) != 3 {
		t.Fatalf("while reconnecting the table shows %d rows, want the 3 it had:\n%s", len(names), scr)
	}
	t.Logf("reconnecting %v after the drop", time.Since(out).Round(time.Millisecond))
	// Until the stall ends the rows stay, still saying so.
	time.Sleep(10*time.Second - time.Since(out))
	scr = ui.screen()
	if names := screenPodNames(scr); len(names) != 3 || !strings.Contains(scr, "reconnecting") {
		t.Fatalf("10 s into the outage: %d rows, want the 3 it had, reconnecting:\n%s", len(names), scr)
	}
	ui.waitFor("pods("+ns+")[4]", "during", "synced  4/4")
	t.Logf("complete again %v after the drop (the link stalled for 15 s)", time.Since(out).Round(time.Millisecond))
	waitOpen(t, link, 1, "after the outage")
	t.Logf("link: %+v", link.stats())
}

// waitOpen waits up to 60 s until the link holds want open connections.
func waitOpen(t *testing.T, link *farLink, want int64, when string) {
	t.Helper()
	waitForSeen(t, 60*time.Second, fmt.Sprintf("%d open connection(s) through the link %s", want, when), func() (bool, string) {
		s := link.stats()
		return s.Open == want, fmt.Sprintf("%d open, %d opened in all", s.Open, s.Connections)
	})
}
