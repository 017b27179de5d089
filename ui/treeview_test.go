package ui

import (
	"fmt"
	"testing"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/discovery"
)

var (
	replicasetsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}
	widgetsGVR     = schema.GroupVersionResource{Group: "shop.example.com", Version: "v1", Resource: "clusterwidgets"}
)

// withTree gives the fixture's web deployment, its replica set and pods to the metadata API, under a
// cluster-scoped ClusterWidget, with secrets forbidden; the pods' full objects say how they are doing.
func withTree(o *Options) {
	c := o.Cluster.(*fakeCluster)
	c.catalog.Add(discovery.Resource{Group: "shop.example.com", Version: "v1", Name: "clusterwidgets",
		SingularName: "clusterwidget", Kind: "ClusterWidget", Verbs: []string{"get", "list", "watch"}})
	c.tree.forbidden = []string{"secrets"}
	c.addMeta(widgetsGVR, "ClusterWidget", "", "big")
	c.addMeta(deploymentsGVR, "Deployment", "shop", "web", "ClusterWidget/big")
	c.addMeta(replicasetsGVR, "ReplicaSet", "shop", "web-7d9f", "Deployment/web")
	c.addMeta(podsGVR, "Pod", "shop", "web-7d9f-abcde", "ReplicaSet/web-7d9f")
	c.addMeta(podsGVR, "Pod", "shop", "web-7d9f-fghij", "ReplicaSet/web-7d9f")
	c.addMeta(podsGVR, "Pod", "shop", "api-5c4b-zzzzz")
	failed := podObject()
	failed.SetName("web-7d9f-fghij")
	_ = unstructured.SetNestedField(failed.Object, "Failed", "status", "phase")
	c.objects["pods/shop/web-7d9f-fghij"] = failed
}

func TestTreeView(t *testing.T) {
	h := start(t, 120, 30, func(o *Options) {
		o.Resource = "replicasets"
		withTree(o)
	})
	h.press(tcell.KeyRune, 't')
	waitFor(t, h, "kinds listed in")
	for _, line := range []string{
		"ClusterWidget big",
		"└─ Deployment web",
		"   └─ ReplicaSet web-7d9f",
		"      ├─ Pod web-7d9f-abcde",
		"      └─ Pod web-7d9f-fghij",
		"not visible: secrets",
	} {
		h.contains(line)
	}
	h.lacks("api-5c4b-zzzzz") // an orphan is in no one's tree
	// Health as kstatus says: a running pod without a Ready condition, a failed one (kstatus: Current).
	waitFor(t, h, "Pod has completed, but not successfully")
	h.contains("InProgress 60m Pod is running but is not Ready")
	h.contains("60m") // AGE
	c := h.cluster
	if c.tree.namespace != "shop" {
		t.Errorf("tree listed namespace %q, want shop", c.tree.namespace)
	}
	for _, k := range c.tree.kinds {
		if k.GVR.Resource == "tokenreviews" {
			t.Errorf("tree lists %s, which cannot be listed", k.Name())
		}
	}

	// Live: a new pod of the replica set appears.
	c.addMeta(podsGVR, "Pod", "shop", "web-7d9f-newone", "ReplicaSet/web-7d9f")
	waitFor(t, h, "Pod web-7d9f-newone")
	// A tree that grows past the screen keeps its top in view (tview would follow the table's end).
	for i := range 40 {
		c.addMeta(podsGVR, "Pod", "shop", fmt.Sprintf("web-7d9f-more%02d", i), "ReplicaSet/web-7d9f")
	}
	h.until("the 46 nodes", func() bool { return len(h.app.top().(*TreeView).nodes) == 46 })
	h.contains("ClusterWidget big")

	// Enter opens the selected node's YAML (the focus is selected: down goes to its first pod).
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyEnter, 0)
	waitFor(t, h, "name: web-7d9f-abcde")
	h.press(tcell.KeyEscape, 0)
	waitFor(t, h, "tree replicasets shop/web-7d9f")

	// Esc closes the tree and stops its watches.
	h.press(tcell.KeyEscape, 0)
	h.until("the tree's informers stopped", func() bool {
		select {
		case <-c.tree.sources[0].Done():
			return true
		default:
			return false
		}
	})
}

func TestTreeViewMissingOwner(t *testing.T) {
	h := start(t, 120, 30, func(o *Options) {
		o.Resource = "pods"
		c := o.Cluster.(*fakeCluster)
		c.tree.forbidden = []string{"replicasets"}
		c.addMeta(podsGVR, "Pod", "shop", "web-7d9f-abcde", "ReplicaSet/web-7d9f")
		c.catalog.Add(discovery.Resource{Group: "metrics.k8s.io", Version: "v1beta1", Name: "pods", SingularName: "pod",
			Kind: "PodMetrics", Verbs: []string{"get", "list"}, Namespaced: true})
	})
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyRune, 't')
	waitFor(t, h, "kinds listed in")
	h.contains("ReplicaSet web-7d9f (not visible)")
	h.contains("not visible: replicasets.apps")
	h.contains("└─ Pod web-7d9f-abcde")
	h.contains("not in the tree (cannot be watched):")
	h.contains("pods.metrics.k8s.io")
}

// TestTreeViewManyNotVisible: beyond a few kinds, those not visible are named one a line under the tree,
// and the tree above them still starts at its root.
func TestTreeViewManyNotVisible(t *testing.T) {
	h := start(t, 120, 16, func(o *Options) {
		o.Resource = "pods"
		c := o.Cluster.(*fakeCluster)
		c.tree.forbidden = []string{"replicasets", "configmaps", "events", "namespaces", "secrets", "deployments",
			"widgets", "clusterwidgets", "leases"}
		c.catalog.Add(discovery.Resource{Group: "shop.example.com", Version: "v1", Name: "clusterwidgets",
			SingularName: "clusterwidget", Kind: "ClusterWidget", Verbs: []string{"get", "list", "watch"}},
			discovery.Resource{Group: "coordination.k8s.io", Version: "v1", Name: "leases", SingularName: "lease",
				Kind: "Lease", Verbs: []string{"get", "list", "watch"}, Namespaced: true})
		c.addMeta(podsGVR, "Pod", "shop", "web-7d9f-abcde", "ReplicaSet/web-7d9f")
	})
	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyRune, 't')
	// (the footer and the chain's rows come from different answers of the tree source: wait for each)
	waitFor(t, h, "not visible: 9 kinds you may not list, named under the tree")
	waitFor(t, h, "ReplicaSet web-7d9f (not visible)")
	waitFor(t, h, "└─ Pod web-7d9f-abcde")
	h.contains("not visible: configmaps")
}
