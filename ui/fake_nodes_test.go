package ui

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
)

// Cordon records "cordon nodes//NAME true" (or false for uncordon); with writes set it patches through them
// (the read-only transport refuses), else it checks pre against the fixture's node.
func (c *fakeCluster) Cordon(_ context.Context, name string, unschedulable bool, pre cluster.Precondition) error {
	c.record(fmt.Sprintf("cordon %s %v", objectKey(nodesGVR, "", name), unschedulable))
	return c.patchNode(name, pre)
}

func (c *fakeCluster) patchNode(name string, pre cluster.Precondition) error {
	if c.writes != nil {
		_, err := c.writes.Resource(nodesGVR).Patch(context.Background(), name, types.MergePatchType, []byte(`{}`), metav1.PatchOptions{})
		return asRefused(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.precondition(nodesGVR, objectKey(nodesGVR, "", name), name, pre)
}

// DrainPlan records "drain-plan nodes//NAME" and answers the fixture's drainPlan (or drainRefusal).
func (c *fakeCluster) DrainPlan(_ context.Context, name string, opts cluster.DrainOptions) (cluster.DrainPlan, error) {
	c.record(fmt.Sprintf("drain-plan %s %+v", objectKey(nodesGVR, "", name), opts))
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.drainPlan, c.drainRefusal
}

// Drain records "drain nodes//NAME {opts}", cordons as Cordon does, then reports the plan's pods evicted
// (those in drainFails failed with that error).
func (c *fakeCluster) Drain(_ context.Context, name string, opts cluster.DrainOptions, pre cluster.Precondition, progress func(cluster.DrainEvent)) error {
	c.record(fmt.Sprintf("drain %s %+v", objectKey(nodesGVR, "", name), opts))
	if err := c.patchNode(name, pre); err != nil {
		return err
	}
	c.mu.Lock()
	pods, fails := c.drainPlan.Evict, c.drainFails
	c.mu.Unlock()
	for _, p := range pods {
		progress(cluster.DrainEvent{Pod: p})
		progress(cluster.DrainEvent{Pod: p, Done: true, Err: fails[p]})
	}
	return nil
}
