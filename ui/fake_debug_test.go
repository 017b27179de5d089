package ui

import (
	"context"
	"fmt"

	"kscope/cluster"
)

// DebugPod records "debug pods/NS/NAME {opts}" and writes as the other writes do (through writes when set,
// else checking pre); the container is debugger-abcde.
func (c *fakeCluster) DebugPod(_ context.Context, ns, name string, opts cluster.DebugOptions, pre cluster.Precondition) (string, error) {
	err := c.write(fmt.Sprintf("debug %s %+v", objectKey(podsGVR, ns, name), opts), podsGVR, ns, name, pre)
	return "debugger-abcde", err
}

// DebugNode records "debug-node nodes//NAME NS {opts}"; with writes set it creates through them (the
// read-only transport refuses); the pod is node-debugger-NAME-abcde.
func (c *fakeCluster) DebugNode(_ context.Context, node, ns string, opts cluster.DebugOptions) (string, error) {
	c.record(fmt.Sprintf("debug-node %s %s %+v", objectKey(nodesGVR, "", node), ns, opts))
	if c.writes != nil {
		if err := c.patchNode(node, cluster.Precondition{}); err != nil {
			return "", err
		}
	}
	return "node-debugger-" + node + "-abcde", nil
}

// WaitRunning records "wait NS/POD CONTAINER": the container runs at once.
func (c *fakeCluster) WaitRunning(_ context.Context, ns, pod, container string) error {
	c.record(fmt.Sprintf("wait %s/%s %s", ns, pod, container))
	return nil
}
