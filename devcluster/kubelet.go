package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metricsresource "sigs.k8s.io/kwok/kustomize/metrics/resource"
	metricsusage "sigs.k8s.io/kwok/kustomize/metrics/usage"
	nodefast "sigs.k8s.io/kwok/kustomize/stage/node/fast"
	nodeheartbeat "sigs.k8s.io/kwok/kustomize/stage/node/heartbeat"
	podfast "sigs.k8s.io/kwok/kustomize/stage/pod/fast"
	kwokv1 "sigs.k8s.io/kwok/pkg/apis/v1alpha1"
	"sigs.k8s.io/yaml"
)

// kwok serves, for every fake node, a kubelet API on one loopback port (the nodes' InternalIP 127.0.0.1 and
// kubelet port): the apiserver proxies pods' logs, exec and port-forward to it, metrics-server scrapes its
// resource metrics. What each answers comes from kwok's configuration, written by writeKwokConfig:
//   - logs: ClusterLogs → the podLogs files (state/pod-logs), current and previous;
//   - exec: ClusterExec → a local process in exec-root (as nobody when `devcluster up` ran as root);
//   - attach: ClusterAttach → the lines appended to the container's current podLogs file from then on;
//   - port-forward: ClusterPortForward → every pod port reaches the local HTTP server podserver;
//   - metrics: kwok's own ClusterResourceUsage (usage from the kwok.x-k8s.io/usage-cpu and -memory pod
//     annotations, else 1m and 1Mi) and Metric (the kubelet's /metrics/resource, served per node at
//     /metrics/nodes/NODE/metrics/resource, which the node annotation metrics.k8s.io/resource-metrics-path
//     tells metrics-server).

// resourceMetricsPathAnnotation tells metrics-server (v0.8) where a node serves its resource metrics.
const resourceMetricsPathAnnotation = "metrics.k8s.io/resource-metrics-path"

// nodeMetricsPath is where kwok serves node's resource metrics (the path of kwok's Metric "metrics-resource").
func nodeMetricsPath(node string) string { return "/metrics/nodes/" + node + "/metrics/resource" }

func kwokArgs(l layout, c credentials, p ports) []string {
	return []string{
		"--kubeconfig", l.kubeconfig(), "--config", l.state("kwok.yaml"),
		"--manage-all-nodes=false", "--manage-nodes-with-annotation-selector", "kwok.x-k8s.io/node=fake",
		"--server-address", fmt.Sprintf("127.0.0.1:%d", p.Kwok),
		"--node-ip", "127.0.0.1", "--node-port", fmt.Sprint(p.Kwok),
		"--tls-cert-file", c.kubeletCert, "--tls-private-key-file", c.kubeletKey,
	}
}

// kwokEnv is the environment kwok runs in, and so the one of every exec'd shell: not the environment of
// whoever ran `devcluster up` (it may hold credentials), only what a shell needs.
func kwokEnv(l layout) []string {
	return []string{"HOME=" + execRoot(l), "TERM=xterm", "LANG=C.UTF-8", "KSCOPE_DEVCLUSTER_POD=1",
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
}

// execRoot is where exec'd commands start: a folder of this cluster's under the system's temporary folder,
// which every user may enter — commands run as nobody, and the cluster's own folder may lie under one that
// only its owner may enter (a fresh clone in a mktemp folder: "fork/exec /usr/bin/sh: permission denied").
func execRoot(l layout) string {
	sum := sha256.Sum256([]byte(l.root))
	return filepath.Join(os.TempDir(), "kscope-devcluster-exec-"+hex.EncodeToString(sum[:6]))
}

// writeKwokConfig writes kwok's configuration and prepares the files it serves: its "fast" stages (nodes
// Ready, pods Running, Job pods Completed) and kscope's podEphemeralRunning (ephemeral containers running),
// the kubelet server's logs, exec, port-forward and metrics, and the nodes' heartbeat (every 20–45 s). kwok renews no lease: without the heartbeat a node's Ready condition goes
// Unknown once kube-controller-manager's grace period is over, the node is tainted unreachable (NoExecute),
// and its pods are evicted five minutes later unless the controller, often behind on a busy cluster, lifts
// the taint first (seen: 12,500 pods of a 50k-pod namespace deleted 15 minutes after the cluster started).
func writeKwokConfig(l layout, p ports) error {
	logs, err := newPodLogs(l)
	if err != nil {
		return err
	}
	if err := logs.ensure(time.Now()); err != nil {
		return err
	}
	if err := writeExecRoot(l); err != nil {
		return err
	}
	metric, err := resourceMetrics()
	if err != nil {
		return err
	}
	docs := []string{nodefast.DefaultNodeInit, nodeheartbeat.DefaultNodeHeartbeat, podfast.DefaultPodReady,
		podfast.DefaultPodComplete, podfast.DefaultPodDelete, podEphemeralRunning, metricsusage.DefaultUsageFromAnnotation, metric}
	for _, obj := range []any{clusterLogs(logs), clusterAttach(logs), clusterExec(l), clusterPortForward(p)} {
		data, err := yaml.Marshal(obj)
		if err != nil {
			return fmt.Errorf("encode kwok configuration: %w", err)
		}
		docs = append(docs, string(data))
	}
	for i, d := range docs {
		docs[i] = strings.TrimSpace(d)
	}
	return os.WriteFile(l.state("kwok.yaml"), []byte(strings.Join(docs, "\n---\n")+"\n"), 0o644)
}

// resourceMetrics is kwok's Metric for the kubelet's /metrics/resource, with what a node's system daemons use
// besides its pods (100m CPU, 512Mi memory) added to the node's figures: an empty node has usage too, as real
// ones do (with none, metrics-server reports no metrics for it).
func resourceMetrics() (string, error) {
	metric := metricsresource.DefaultMetricsResource
	for _, r := range [][2]string{
		{`value: 'node.CumulativeUsage("cpu")'`, `value: 'node.CumulativeUsage("cpu") + 0.1 * node.SinceSecond()'`},
		{`value: 'node.Usage("memory")'`, `value: 'node.Usage("memory") + 536870912.0'`},
	} {
		if !strings.Contains(metric, r[0]) {
			return "", fmt.Errorf("kwok %s's metrics-resource Metric has no %s", kwokVersion, r[0])
		}
		metric = strings.Replace(metric, r[0], r[1], 1)
	}
	return metric, nil
}

func kwokMeta(kind, name string) (metav1.TypeMeta, metav1.ObjectMeta) {
	return metav1.TypeMeta{Kind: kind, APIVersion: kwokv1.GroupVersion.String()}, metav1.ObjectMeta{Name: name}
}

// clusterLogs serves each container's log files: its own where the seeded manifests name it, else the
// default pair.
func clusterLogs(logs podLogs) *kwokv1.ClusterLogs {
	obj := &kwokv1.ClusterLogs{}
	obj.TypeMeta, obj.ObjectMeta = kwokMeta(kwokv1.ClusterLogsKind, "devcluster-logs")
	for _, name := range logs.all() {
		entry := kwokv1.Log{LogsFile: ptr(logs.current(name)), PreviousLogsFile: ptr(logs.previous(name))}
		if name != defaultLogName {
			entry.Containers = []string{name}
		}
		obj.Spec.Logs = append(obj.Spec.Logs, entry)
	}
	return obj
}

// clusterAttach attaches to each container's current log file, as clusterLogs serves it: an attached client
// reads the lines written to it from then on (kwok follows the file from its end, as a container's output).
func clusterAttach(logs podLogs) *kwokv1.ClusterAttach {
	obj := &kwokv1.ClusterAttach{}
	obj.TypeMeta, obj.ObjectMeta = kwokMeta(kwokv1.ClusterAttachKind, "devcluster-attach")
	for _, name := range logs.all() {
		entry := kwokv1.AttachConfig{LogsFile: ptr(logs.current(name))}
		if name != defaultLogName {
			entry.Containers = []string{name}
		}
		obj.Spec.Attaches = append(obj.Spec.Attaches, entry)
	}
	return obj
}

// clusterExec runs every exec locally, in the exec root, as the user who ran `devcluster up` — or, when that
// is root, as nobody: kwok's kubelet port takes requests from any local process, authenticated or not.
func clusterExec(l layout) *kwokv1.ClusterExec {
	obj := &kwokv1.ClusterExec{}
	obj.TypeMeta, obj.ObjectMeta = kwokMeta(kwokv1.ClusterExecKind, "devcluster-exec")
	local := &kwokv1.ExecTargetLocal{WorkDir: execRoot(l)}
	if os.Geteuid() == 0 {
		if nobody, err := user.Lookup("nobody"); err == nil {
			if uid, err := strconv.ParseInt(nobody.Uid, 10, 64); err == nil {
				local.SecurityContext = &kwokv1.SecurityContext{RunAsUser: &uid}
			}
		}
	}
	obj.Spec.Execs = []kwokv1.ExecTarget{{Local: local}}
	return obj
}

// clusterPortForward forwards every port of every pod to the local HTTP server.
func clusterPortForward(p ports) *kwokv1.ClusterPortForward {
	obj := &kwokv1.ClusterPortForward{}
	obj.TypeMeta, obj.ObjectMeta = kwokMeta(kwokv1.ClusterPortForwardKind, "devcluster-port-forward")
	obj.Spec.Forwards = []kwokv1.Forward{{Target: &kwokv1.ForwardTarget{Address: "127.0.0.1", Port: int32(p.PodServer)}}}
	return obj
}

// writeExecRoot creates the folder exec'd commands start in, with a note on where they run.
func writeExecRoot(l layout) error {
	if err := os.MkdirAll(execRoot(l), 0o755); err != nil {
		return err
	}
	note := "This shell runs on the machine of the kscope devcluster (kwok's kubelet server runs exec locally),\n" +
		"in " + execRoot(l) + ". Pods on kwok nodes have no containers.\n"
	return os.WriteFile(filepath.Join(execRoot(l), "README.txt"), []byte(note), 0o644)
}

func ptr[T any](v T) *T { return &v }
