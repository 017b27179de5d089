package main

import (
	"context"
	"fmt"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ensureNodes creates n fake nodes that kwok manages and waits until they are Ready.
func ensureNodes(ctx context.Context, l layout, n int) error {
	cc, err := newClusterClients(l)
	if err != nil {
		return err
	}
	for i := range n {
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{
			Name:        fmt.Sprintf("kwok-node-%d", i),
			Annotations: map[string]string{"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
			Labels: map[string]string{"type": "kwok", "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
				"kubernetes.io/hostname": fmt.Sprintf("kwok-node-%d", i), "node-role.kubernetes.io/agent": ""},
		}}
		_, err := cc.typed.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("create node %s: %w", node.Name, err)
		}
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		list, err := cc.typed.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: "type=kwok"})
		if err == nil && countReady(list.Items) >= n {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("fake nodes not Ready and schedulable after 60s (logs: %s, %s)", l.logFile("kwok"), l.logFile("kube-controller-manager"))
		}
		if _, alive := runningPid(l, "kwok"); !alive {
			fmt.Fprintln(os.Stderr, "devcluster: kwok is not running")
			return fmt.Errorf("kwok exited: %v", tailLines(l.logFile("kwok"), 3))
		}
		time.Sleep(300 * time.Millisecond)
	}
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
