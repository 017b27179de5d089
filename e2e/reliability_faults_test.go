//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"kscope/watch"
)

var (
	podsGVR       = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	configMapsGVR = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
)

// TestReliabilityAPIServerRestart: a watch.Source and bin/kscope (in tmux) watch pods in a namespace while
// pods there are created, patched and deleted; kube-apiserver is stopped for 10 s and started again while
// the churn goes on. Both say "reconnecting" while it is down, then "synced", and the rows equal the
// server's state: same names and resourceVersions, nothing lost, nothing phantom.
func TestReliabilityAPIServerRestart(t *testing.T) {
	serial(t, "stops and restarts kube-apiserver")
	ns := testNamespace(t)
	cfg := restConfig(t, "admin")
	dyn := dynamic.NewForConfigOrDie(cfg)
	src := startSource(t, cfg, watch.Spec{GVR: podsGVR, Namespaced: true, Namespace: ns})
	phases := recordPhases(src)
	ui := startUI(t, "-n", ns, "pods")
	ui.waitFor("pods("+ns+")[0]", "synced")

	churn := startPodChurn(t, cfg, ns, 10)
	waitChurn(t, churn, 20, "before the stop")
	start := stopAPIServer(t)
	down := time.Now()
	waitPhase(t, src, watch.Reconnecting, 60*time.Second)
	ui.waitFor("reconnecting")
	t.Logf("reconnecting after %v: %s", time.Since(down).Round(time.Millisecond), src.State().Message)
	time.Sleep(10*time.Second - time.Since(down)) // the fault: down for 10 s, longer if noticing it took longer
	start()
	t.Logf("kube-apiserver back after %v", time.Since(down).Round(time.Second))
	waitChurn(t, churn, 20, "after the restart") // changes the watchers must pick up after reconnecting
	churn.halt()

	waitPhase(t, src, watch.Synced, 60*time.Second)
	n := waitRowsEqualServer(t, src, dyn, podsGVR, ns, 60*time.Second)
	t.Logf("Source: %d rows equal the server's (names and resourceVersions) after %d changes, %d retried while down; phases %q",
		n, churn.ops.Load(), churn.retries.Load(), phases.seen(true))
	// bin/kscope may still be in the reflector's backoff (it says reconnecting meanwhile): give it 90 s.
	deadline := time.Now().Add(90 * time.Second)
	for {
		want := serverState(t, dyn, podsGVR, ns)
		scr := ui.screen()
		shown := screenPodNames(scr)
		problem := ""
		switch {
		case !strings.Contains(scr, fmt.Sprintf("pods(%s)[%d]", ns, len(want))) || !strings.Contains(scr, "synced"):
			problem = "title or state"
		case len(shown) != len(want):
			problem = fmt.Sprintf("%d rows shown, server has %d", len(shown), len(want))
		default:
			for _, name := range shown {
				if want[ns+"/"+name] == "" {
					problem = "phantom row " + name
				}
			}
		}
		if problem == "" {
			t.Logf("bin/kscope shows the server's %d pods, synced", len(want))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bin/kscope after the restart: %s:\n%s", problem, scr)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if scr := ui.screen(); klogLine.MatchString(scr) {
		t.Errorf("log output on the screen:\n%s", scr)
	}
}

// waitChurn waits until churn has made n more changes (counted from now), failing t after 60 s with how many
// it made and how many it retried.
func waitChurn(t *testing.T, churn *podChurn, n int64, when string) {
	t.Helper()
	from := churn.ops.Load()
	waitForSeen(t, 60*time.Second, fmt.Sprintf("the churn makes %d changes %s", n, when), func() (bool, string) {
		made := churn.ops.Load() - from
		return made >= n, fmt.Sprintf("%d changes, %d retries in all", made, churn.retries.Load())
	})
}

// klogLine matches a client-go log line (klog header), which must never reach kscope's screen.
var klogLine = regexp.MustCompile(`[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6}`)

// screenPodNames returns the first cell of each table row on a kscope screen (the pod names).
func screenPodNames(scr string) []string {
	var names []string
	for _, l := range strings.Split(scr, "\n") {
		f := strings.Fields(strings.Trim(l, "║│ "))
		if len(f) > 1 && (strings.HasPrefix(l, "║") || strings.HasPrefix(l, "│")) && f[0] != "NAME" {
			names = append(names, f[0])
		}
	}
	return names
}

// TestReliabilityExpiredResourceVersionRelists: a Source reaches the API server through a proxy. The proxy
// starts refusing new connections and kube-apiserver is stopped, which ends the Source's watch; the
// reflector keeps retrying the watch from its last resourceVersion. The server is started again but the
// Source stays cut off while its objects are created, changed and deleted and etcd is compacted. When the
// proxy lets it through, the server ends the resumed watch with 410 Gone (the new server's watch cache and
// etcd no longer hold that resourceVersion); the Source says so, relists by itself, and its rows equal the
// server's state.
func TestReliabilityExpiredResourceVersionRelists(t *testing.T) {
	serial(t, "stops kube-apiserver and compacts etcd")
	ns := testNamespace(t)
	cfg := restConfig(t, "admin")
	cs := kubernetes.NewForConfigOrDie(cfg)
	dyn := dynamic.NewForConfigOrDie(cfg)
	ctx := context.Background()
	for i := 0; i < 20; i++ {
		if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("cm-%d", i)}, Data: map[string]string{"v": "0"}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	proxy := startProxy(t, cfg)
	src := startSource(t, proxy.config(cfg), watch.Spec{GVR: configMapsGVR, Namespaced: true, Namespace: ns})
	waitRowsEqualServer(t, src, dyn, configMapsGVR, ns, 30*time.Second)
	phases := recordPhases(src)

	proxy.refuseNew()
	start := stopAPIServer(t)
	waitPhase(t, src, watch.Reconnecting, 60*time.Second)
	start()
	// Changes the Source cannot see: 5 deleted, 5 updated, 5 created.
	for i := 0; i < 5; i++ {
		if err := cs.CoreV1().ConfigMaps(ns).Delete(ctx, fmt.Sprintf("cm-%d", i), metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, fmt.Sprintf("cm-%d", 10+i), metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cm.Data["v"] = "1"
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("new-%d", i)}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	stale := sourceState(src)
	differ := 0
	server := serverState(t, dyn, configMapsGVR, ns)
	for k, rv := range server {
		if stale[k] != rv {
			differ++
		}
	}
	for k := range stale {
		if server[k] == "" {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("the source saw every change made while it was cut off: the cut did not hold, nothing to relist")
	}
	devcluster(t, "compact")
	proxy.setCut(false)

	waitPhase(t, src, watch.Synced, 90*time.Second)
	n := waitRowsEqualServer(t, src, dyn, configMapsGVR, ns, 90*time.Second)
	seen := phases.seen(true)
	t.Logf("%d rows equal the server's after the reconnect (%d rows differed before it); phases %q", n, differ, seen)
	expired := false
	for _, p := range seen {
		expired = expired || strings.Contains(p, "too old resource version")
	}
	if !expired {
		t.Errorf("the Source never reported the expired resourceVersion (410 Gone); phases %q", seen)
	}
}

// TestReliabilitySilentPartitionDetected: the connection between a Source and the API server goes silent
// (a proxy holds every byte; no reset, no refusal) while the server's objects change. The Source does not
// go on calling its stale rows synced: it says reconnecting within 90 s (HTTP/2 pings time out), and once
// the connection flows again its rows equal the server's state.
func TestReliabilitySilentPartitionDetected(t *testing.T) {
	parallel(t) // its fault is its own proxy's
	ns := testNamespace(t)
	cfg := restConfig(t, "admin")
	cs := kubernetes.NewForConfigOrDie(cfg)
	dyn := dynamic.NewForConfigOrDie(cfg)
	ctx := context.Background()
	proxy := startProxy(t, cfg)
	src := startSource(t, proxy.config(cfg), watch.Spec{GVR: configMapsGVR, Namespaced: true, Namespace: ns})
	waitRowsEqualServer(t, src, dyn, configMapsGVR, ns, 30*time.Second)
	phases := recordPhases(src)

	proxy.stalled.Store(true)
	stalled := time.Now()
	if _, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "unseen"}},
		metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitPhase(t, src, watch.Reconnecting, 90*time.Second)
	t.Logf("reconnecting %v after the connection went silent: %s", time.Since(stalled).Round(time.Second), src.State().Message)
	proxy.stalled.Store(false)
	waitPhase(t, src, watch.Synced, 90*time.Second)
	n := waitRowsEqualServer(t, src, dyn, configMapsGVR, ns, 60*time.Second)
	t.Logf("%d rows equal the server's; phases %q", n, phases.seen(true))
}
