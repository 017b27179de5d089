package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
)

// seedPods creates n pods named scale-NNNNNN in namespace, with parallel creates: bound directly to the scale
// pool's fake nodes when withNodes (no scheduling round-trip; metrics-server does not scrape them), else
// unbound (a cluster without nodes: they stay Pending). Existing pods are kept, so a second run tops up to n.
func seedPods(ctx context.Context, l layout, cc *clusterClients, namespace string, n, workers int, withNodes bool) error {
	start := time.Now()
	_, err := cc.typed.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create namespace %s: %w", namespace, err)
	}
	if err := waitDefaultServiceAccount(ctx, cc, namespace); err != nil {
		return err
	}
	nodeOf := func(int) string { return "" }
	if withNodes {
		p, err := loadOrPickPorts(l, 2)
		if err != nil {
			return err
		}
		nodes, err := ensureNodes(ctx, l, p, scaleNodes(), 4)
		if err != nil {
			return fmt.Errorf("scale nodes (is the cluster up?): %w", err)
		}
		nodeOf = func(i int) string { return nodes[i%len(nodes)].Name }
	}
	var next, created atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) || ctx.Err() != nil {
					return
				}
				pod := scalePod(namespace, int(i), nodeOf(int(i)))
				_, err := cc.typed.CoreV1().Pods(namespace).Create(ctx, pod, metav1.CreateOptions{})
				switch {
				case err == nil:
					created.Add(1)
				case apierrors.IsAlreadyExists(err):
				default:
					once.Do(func() { firstErr = fmt.Errorf("create pod %s: %w", pod.Name, err) })
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	elapsed := time.Since(start)
	fmt.Fprintf(os.Stderr, "devcluster: %d pods in %s (%d created) in %s (%.0f/s)\n", n, namespace, created.Load(),
		elapsed.Round(100*time.Millisecond), float64(created.Load())/elapsed.Seconds())
	return nil
}

func scalePod(namespace string, i int, node string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("scale-%06d", i), Namespace: namespace,
			Labels: map[string]string{"app": "scale", "shard": fmt.Sprintf("s%02d", i%16)},
		},
		Spec: corev1.PodSpec{
			NodeName:   node,
			Containers: []corev1.Container{{Name: "app", Image: "registry.example.com/scale:1.0"}},
		},
	}
}

func waitDefaultServiceAccount(ctx context.Context, cc *clusterClients, namespace string) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, err := cc.typed.CoreV1().ServiceAccounts(namespace).Get(ctx, "default", metav1.GetOptions{})
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("namespace %s has no default ServiceAccount after 60s (is kube-controller-manager running?)", namespace)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// hasNodes tells whether the kubeconfig's context name ("": its current one) is of the first cluster, the one
// with kwok's nodes.
func hasNodes(l layout, name string) (bool, error) {
	cfg, err := clientcmd.LoadFromFile(l.kubeconfig())
	if err != nil {
		return false, fmt.Errorf("read %s: %w", l.kubeconfig(), err)
	}
	if name == "" {
		name = cfg.CurrentContext
	}
	c, ok := cfg.Contexts[name]
	if !ok {
		return false, fmt.Errorf("no context %q in %s", name, l.kubeconfig())
	}
	return c.Cluster == firstCluster, nil
}
