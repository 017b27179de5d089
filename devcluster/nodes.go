package main

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// nodePool is a set of fake nodes: kwok-node-N for the demo, the tests and whatever the scheduler places,
// kwok-scale-N for the pods of `seed --pods`. metrics-server scrapes the first only: kwok computes a scrape's
// metrics pod by pod (about 0.3 ms of CPU each), so 50k pods scraped every 10s would keep the machine busy.
type nodePool struct {
	prefix, kind string         // node names are prefix-N; the label type=kind selects the pool
	taints       []corev1.Taint // the scale pool's keeps the scheduler off (seed binds its pods itself)
}

func demoNodes() nodePool { return nodePool{prefix: "kwok-node-", kind: "kwok"} }

func scaleNodes() nodePool {
	return nodePool{prefix: "kwok-scale-", kind: "kwok-scale",
		taints: []corev1.Taint{{Key: "kscope.devcluster/scale", Value: "true", Effect: corev1.TaintEffectNoSchedule}}}
}

func (np nodePool) selector() string { return "type=" + np.kind }

// ensureNodes creates n fake nodes of the pool that kwok manages, waits until they are Ready, and points
// each at kwok's kubelet server (which a node of an older devcluster state may not be yet). It returns them.
func ensureNodes(ctx context.Context, l layout, p ports, np nodePool, n int) ([]corev1.Node, error) {
	cc, err := newClusterClients(l)
	if err != nil {
		return nil, err
	}
	for i := range n {
		name := fmt.Sprintf("%s%d", np.prefix, i)
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{
			Name: name,
			Annotations: map[string]string{"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0",
				resourceMetricsPathAnnotation: nodeMetricsPath(name)},
			Labels: map[string]string{"type": np.kind, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
				"kubernetes.io/hostname": name, "node-role.kubernetes.io/agent": ""},
		}, Spec: corev1.NodeSpec{Taints: np.taints}}
		_, err := cc.typed.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return nil, fmt.Errorf("create node %s: %w", node.Name, err)
		}
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		list, err := cc.typed.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: np.selector()})
		if err == nil && countReady(list.Items) >= n {
			return list.Items, pointNodesAtKwok(ctx, cc, p, list.Items)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("fake nodes not Ready and schedulable after 60s (logs: %s, %s)", l.logFile("kwok"), l.logFile("kube-controller-manager"))
		}
		if _, alive := runningPid(l, "kwok"); !alive {
			return nil, fmt.Errorf("kwok exited: %s (log: %s)", logTail(l.logFile("kwok")), l.logFile("kwok"))
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// The fake nodes' CPU and memory, for the share of them that `kubectl top nodes` shows (kwok's default, 1000
// cores and 1Ti, makes every share 0%); their pod capacity stays kwok's (a million: scale tests put 50k pods
// on four nodes).
const (
	nodeCPU    = "16"
	nodeMemory = "64Gi"
)

// pointNodesAtKwok gives each node what the apiserver and metrics-server reach its kubelet with — the
// address 127.0.0.1, kwok's port, the path of its resource metrics — where kwok has not (it sets the address
// and port only on nodes it initialises, and a node's annotations are the devcluster's), and its size.
func pointNodesAtKwok(ctx context.Context, cc *clusterClients, p ports, nodes []corev1.Node) error {
	for _, node := range nodes {
		if node.Annotations[resourceMetricsPathAnnotation] != nodeMetricsPath(node.Name) {
			patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, resourceMetricsPathAnnotation, nodeMetricsPath(node.Name))
			if _, err := cc.typed.CoreV1().Nodes().Patch(ctx, node.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
				return fmt.Errorf("annotate node %s: %w", node.Name, err)
			}
		}
		if internalIP(node) == "127.0.0.1" && int(node.Status.DaemonEndpoints.KubeletEndpoint.Port) == p.Kwok &&
			node.Status.Allocatable.Cpu().String() == nodeCPU {
			continue
		}
		resources := fmt.Sprintf(`{"cpu":%q,"memory":%q,"pods":"1M"}`, nodeCPU, nodeMemory)
		patch := fmt.Sprintf(`{"status":{"addresses":[{"type":"InternalIP","address":"127.0.0.1"},{"type":"Hostname","address":%q}],`+
			`"daemonEndpoints":{"kubeletEndpoint":{"Port":%d}},"capacity":%s,"allocatable":%s}}`, node.Name, p.Kwok, resources, resources)
		if _, err := cc.typed.CoreV1().Nodes().Patch(ctx, node.Name, types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}, "status"); err != nil {
			return fmt.Errorf("point node %s at kwok's kubelet server: %w", node.Name, err)
		}
	}
	return nil
}

func internalIP(n corev1.Node) string {
	for _, a := range n.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			return a.Address
		}
	}
	return ""
}

// countReady counts the nodes that are Ready and schedulable: the node lifecycle controller has lifted the
// not-ready taint that every new node starts with.
func countReady(nodes []corev1.Node) int {
	ready := 0
	for _, n := range nodes {
		if isReady(n) && !hasTaint(n, corev1.TaintNodeNotReady) {
			ready++
		}
	}
	return ready
}

func isReady(n corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func hasTaint(n corev1.Node, key string) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key {
			return true
		}
	}
	return false
}
