package ui

import (
	"cmp"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"

	"kscope/tree"
)

// fakeTree is a fake metadata API (client-go's metadata fake) that real tree.Sources list and watch.
type fakeTree struct {
	client *metadatafake.FakeMetadataClient
	// forbidden lists the resources whose lists the server refuses (403).
	forbidden []string
	// sources are the tree sources handed out, in order; kinds and namespace what they were asked for.
	sources   []*tree.Source
	kinds     []tree.Kind
	namespace string
}

// treeClient returns the fake metadata API, made on first use. Callers hold c.mu or own c alone.
func (c *fakeCluster) treeClient() *metadatafake.FakeMetadataClient {
	if c.tree.client == nil {
		scheme := metadatafake.NewTestScheme()
		metav1.AddMetaToScheme(scheme)
		c.tree.client = metadatafake.NewSimpleMetadataClient(scheme)
		c.tree.client.PrependReactor("list", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
			c.mu.Lock()
			defer c.mu.Unlock()
			for _, r := range c.tree.forbidden {
				if r == a.GetResource().Resource {
					return true, nil, apierrors.NewForbidden(a.GetResource().GroupResource(), "", nil)
				}
			}
			return false, nil, nil
		})
	}
	return c.tree.client
}

func (c *fakeCluster) NewTreeSource(kinds []tree.Kind, namespace string) (TreeSource, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	src := tree.NewSource(c.treeClient(), kinds, namespace, nil, nil)
	c.tree.sources = append(c.tree.sources, src)
	c.tree.kinds, c.tree.namespace = kinds, namespace
	return src, nil
}

// addMeta adds the metadata of an object of gvr (kind) to the fake API; owners are "Kind/name" of objects
// whose UID is "uid-name", the first one the controller.
func (c *fakeCluster) addMeta(gvr schema.GroupVersionResource, kind, ns, name string, owners ...string) {
	m := &metav1.PartialObjectMetadata{
		TypeMeta: metav1.TypeMeta{APIVersion: gvr.GroupVersion().String(), Kind: kind},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + name), ResourceVersion: "1",
			CreationTimestamp: metav1.NewTime(t0.Add(-time.Hour))},
	}
	apiVersions := map[string]string{"Deployment": "apps/v1", "ReplicaSet": "apps/v1", "ClusterWidget": "shop.example.com/v1"}
	for i, o := range owners {
		k, n, _ := strings.Cut(o, "/")
		ctrl := i == 0
		m.OwnerReferences = append(m.OwnerReferences, metav1.OwnerReference{APIVersion: cmp.Or(apiVersions[k], "v1"), Kind: k, Name: n,
			UID: types.UID("uid-" + n), Controller: &ctrl})
	}
	c.mu.Lock()
	client := c.treeClient()
	c.mu.Unlock()
	if err := client.Tracker().Create(gvr, m, ns); err != nil {
		panic(err)
	}
}
