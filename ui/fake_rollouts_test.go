package ui

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
)

// Revisions implements cluster.Rollouts: two revisions of any workload, the second current.
func (c *fakeCluster) Revisions(_ context.Context, gvr schema.GroupVersionResource, ns, name string) ([]cluster.Revision, types.UID, error) {
	c.record(fmt.Sprintf("revisions %s", objectKey(gvr, ns, name)))
	return []cluster.Revision{{Number: 1, ChangeCause: "first"}, {Number: 2, ChangeCause: "second", Current: true}}, types.UID("uid-" + name), nil
}

// Undo implements cluster.Rollouts: recorded, then written as the other writes are (write).
func (c *fakeCluster) Undo(_ context.Context, gvr schema.GroupVersionResource, ns, name string, revision int64, uid types.UID, dryRun bool) (map[string]any, error) {
	err := c.write(fmt.Sprintf("undo %s %d dry-run=%v", objectKey(gvr, ns, name), revision, dryRun), gvr, ns, name, cluster.Precondition{UID: uid})
	return nil, err
}
