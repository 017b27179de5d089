package ui

import (
	"context"
	"maps"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/livetable"
	"kscope/watch"
)

// fakeMetrics is the metrics a fakeCluster serves; guarded by the cluster's mu.
type fakeMetrics struct {
	pods      []cluster.PodUsage
	nodes     []cluster.NodeUsage
	err       error                           // fails PodMetrics and NodeMetrics when set
	resources map[string]cluster.PodResources // by pod key
	// polls counts the PodMetrics and NodeMetrics calls; watches the WatchPodResources calls.
	polls, watches int
	// resourcesSynced, when set, is the Synced channel of the next WatchPodResources (closed by the test);
	// else it is synced at once.
	resourcesSynced chan struct{}
}

func (c *fakeCluster) PodMetrics(_ context.Context, namespace, _ string) ([]cluster.PodUsage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.metrics.polls++
	if c.metrics.err != nil {
		return nil, c.metrics.err
	}
	var out []cluster.PodUsage
	for _, u := range c.metrics.pods {
		if namespace == "" || u.Namespace == namespace {
			out = append(out, u)
		}
	}
	return out, nil
}

func (c *fakeCluster) NodeMetrics(context.Context, string) ([]cluster.NodeUsage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.metrics.polls++
	if c.metrics.err != nil {
		return nil, c.metrics.err
	}
	return append([]cluster.NodeUsage(nil), c.metrics.nodes...), nil
}

func (c *fakeCluster) WatchPodResources(context.Context, watch.Spec) cluster.PodResourceReader {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.metrics.watches++
	synced := c.metrics.resourcesSynced
	if synced == nil {
		synced = make(chan struct{})
		close(synced)
	}
	return fakePodResources{synced: synced, resources: maps.Clone(c.metrics.resources)}
}

// setMetrics replaces what the metrics API answers.
func (c *fakeCluster) setMetrics(fn func(m *fakeMetrics)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fn(&c.metrics)
}

// metricsCalls returns the number of metrics polls so far.
func (c *fakeCluster) metricsCalls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.metrics.polls
}

// fakePodResources holds the resources as they were when the watch started, synced at once.
type fakePodResources struct {
	synced    chan struct{}
	resources map[string]cluster.PodResources
}

func (r fakePodResources) Synced() <-chan struct{} { return r.synced }
func (r fakePodResources) Get(key string) (cluster.PodResources, bool) {
	p, ok := r.resources[key]
	return p, ok
}

// withMetrics makes the fixture cluster serve metrics.k8s.io (pods and nodes) and list nodes.
func withMetrics(c *fakeCluster) {
	metricsVerbs := []string{"get", "list"}
	c.catalog.Add(
		discovery.Resource{Group: livetable.MetricsGroup, Version: "v1beta1", Name: "pods", SingularName: "", Kind: "PodMetrics",
			Verbs: metricsVerbs, Namespaced: true},
		discovery.Resource{Group: livetable.MetricsGroup, Version: "v1beta1", Name: "nodes", SingularName: "", Kind: "NodeMetrics",
			Verbs: metricsVerbs},
	)
	withNodes(c)
}

// withNodes adds a nodes resource with two nodes to the fixture cluster.
func withNodes(c *fakeCluster) {
	c.catalog.Add(discovery.Resource{Version: "v1", Name: "nodes", SingularName: "node", Kind: "Node", ShortNames: []string{"no"},
		Verbs: []string{"get", "list", "watch", "patch"}})
	c.columns["nodes"] = []watch.Column{{Name: "NAME", Type: "string", Format: "name"},
		{Name: "STATUS", Type: "string"}, {Name: "AGE", Type: "date", Age: true}}
	c.rows["nodes"] = []*watch.Row{
		{Key: "kwok-node-0", Name: "kwok-node-0", UID: "uid-node-0", Created: t0.Add(-48 * 3600e9), Cells: []string{"kwok-node-0", "Ready", "<age>"}},
		{Key: "kwok-node-1", Name: "kwok-node-1", UID: "uid-node-1", Created: t0.Add(-48 * 3600e9), Cells: []string{"kwok-node-1", "Ready", "<age>"}},
	}
}
