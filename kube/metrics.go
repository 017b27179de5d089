package kube

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"kscope/ui"
)

// The resources of metrics.k8s.io that `kubectl top` reads (metrics-server serves v1beta1 only).
var (
	podMetricsGVR  = schema.GroupVersionResource{Group: "metrics.k8s.io", Version: "v1beta1", Resource: "pods"}
	nodeMetricsGVR = schema.GroupVersionResource{Group: "metrics.k8s.io", Version: "v1beta1", Resource: "nodes"}
)

// PodMetrics implements ui.Cluster with one list of metrics.k8s.io/v1beta1 PodMetrics through the dynamic
// client; each pod's usage is the sum of its containers' (resource.Quantity.Add, as kubectl top pods does).
// Errors are worded by DescribeServerError.
func (c *Cluster) PodMetrics(ctx context.Context, namespace, labelSelector string) ([]ui.PodUsage, error) {
	list, err := c.dyn.Resource(podMetricsGVR).Namespace(namespace).List(ctx, metav1.ListOptions{LabelSelector: labelSelector})
	if err != nil {
		return nil, fmt.Errorf("pod metrics: %w", DescribeServerError(c.cfg.Host, err))
	}
	out := make([]ui.PodUsage, 0, len(list.Items))
	for i := range list.Items {
		item := &list.Items[i]
		u := ui.PodUsage{Namespace: item.GetNamespace(), Name: item.GetName()}
		containers, _, _ := unstructured.NestedSlice(item.Object, "containers")
		for _, ct := range containers {
			m, _ := ct.(map[string]any)
			usage, _, _ := unstructured.NestedStringMap(m, "usage")
			cpu, mem, err := parseUsage(usage)
			if err != nil {
				return nil, fmt.Errorf("pod metrics of %s/%s: %w", u.Namespace, u.Name, err)
			}
			u.CPU.Add(cpu)
			u.Memory.Add(mem)
		}
		out = append(out, u)
	}
	return out, nil
}

// NodeMetrics implements ui.Cluster as kubectl top nodes reads its figures: a list of metrics.k8s.io/v1beta1
// NodeMetrics, and a list of the nodes for their status.allocatable (through the dynamic client: a cluster
// has few nodes). Errors are worded by DescribeServerError.
func (c *Cluster) NodeMetrics(ctx context.Context, labelSelector string) ([]ui.NodeUsage, error) {
	opts := metav1.ListOptions{LabelSelector: labelSelector}
	list, err := c.dyn.Resource(nodeMetricsGVR).List(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("node metrics: %w", DescribeServerError(c.cfg.Host, err))
	}
	nodes, err := c.dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "nodes"}).List(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("list nodes: %w", DescribeServerError(c.cfg.Host, err))
	}
	allocatable := make(map[string]map[string]string, len(nodes.Items))
	for _, n := range nodes.Items {
		a, _, _ := unstructured.NestedStringMap(n.Object, "status", "allocatable")
		allocatable[n.GetName()] = a
	}
	out := make([]ui.NodeUsage, 0, len(list.Items))
	for i := range list.Items {
		item := &list.Items[i]
		usage, _, _ := unstructured.NestedStringMap(item.Object, "usage")
		cpu, mem, err := parseUsage(usage)
		if err != nil {
			return nil, fmt.Errorf("node metrics of %s: %w", item.GetName(), err)
		}
		u := ui.NodeUsage{Name: item.GetName(), CPU: cpu, Memory: mem}
		if a, ok := allocatable[u.Name]; ok {
			if u.AllocatableCPU, u.AllocatableMemory, err = parseUsage(a); err != nil {
				return nil, fmt.Errorf("allocatable of node %s: %w", u.Name, err)
			}
			u.HasAllocatable = true
		}
		out = append(out, u)
	}
	return out, nil
}

// parseUsage reads the cpu and memory of a resource map (a metrics usage, a node's allocatable; zero where
// missing).
func parseUsage(usage map[string]string) (cpu, mem resource.Quantity, err error) {
	if s, ok := usage["cpu"]; ok {
		if cpu, err = resource.ParseQuantity(s); err != nil {
			return cpu, mem, fmt.Errorf("cpu usage %q: %w", s, err)
		}
	}
	if s, ok := usage["memory"]; ok {
		if mem, err = resource.ParseQuantity(s); err != nil {
			return cpu, mem, fmt.Errorf("memory usage %q: %w", s, err)
		}
	}
	return cpu, mem, nil
}

// protobufClientset returns a typed clientset on the connection that speaks protobuf (a list of full
// objects decodes several times faster than as JSON).
func (c *Cluster) protobufClientset() (*kubernetes.Clientset, error) {
	cfg := rest.CopyConfig(c.cfg)
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("clientset: %w", err)
	}
	return cs, nil
}
