package ui

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"kscope/cluster"
	"kscope/watch"
)

// fakeObjects is the fake dynamic client object sources read: made on first use from the cluster's objects;
// a test changes objects through it (client) and the sources see the changes as watch events.
type fakeObjects struct {
	client *dynamicfake.FakeDynamicClient
}

// objectsClient returns the fake dynamic client, made from c.objects on first use.
func (c *fakeCluster) objectsClient() *dynamicfake.FakeDynamicClient {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dynamic.client == nil {
		var objs []runtime.Object
		for _, o := range c.objects {
			objs = append(objs, o.DeepCopy())
		}
		kinds := map[schema.GroupVersionResource]string{}
		for _, r := range c.catalog.Resources() {
			kinds[r.GVR()] = r.Kind + "List"
		}
		c.dynamic.client = dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), kinds, objs...)
	}
	return c.dynamic.client
}

// newObjectSource is NewSource for a spec with columns: a real watch.ObjectSource over the fake client.
func (c *fakeCluster) newObjectSource(spec watch.Spec) (cluster.RowSource, error) {
	src, err := watch.NewObjectSource(c.objectsClient(), spec)
	if err != nil {
		return nil, err
	}
	return src, nil
}
