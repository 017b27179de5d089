package treeview

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/discovery"
	"kscope/tree"
	"kscope/ui/navtest"
	"kscope/watch"
)

// wait bounds the tests' waits for the tree's goroutines (generous for -race on a loaded machine).
const wait = 30 * time.Second

// withTree gives the fixture's web deployment, its replica set and pods to the metadata API, under a
// cluster-scoped ClusterWidget, with secrets forbidden; the pods' full objects say how they are doing.
func withTree(c *fakeCluster) {
	c.catalog.Add(discovery.Resource{Group: "shop.example.com", Version: "v1", Name: "clusterwidgets",
		SingularName: "clusterwidget", Kind: "ClusterWidget", Verbs: []string{"get", "list", "watch"}})
	c.forbidden = []string{"secrets"}
	c.addMeta(widgetsGVR, "ClusterWidget", "", "big")
	c.addMeta(deploymentsGVR, "Deployment", "shop", "web", "ClusterWidget/big")
	c.addMeta(replicasetsGVR, "ReplicaSet", "shop", "web-7d9f", "Deployment/web")
	c.addMeta(podsGVR, "Pod", "shop", "web-7d9f-abcde", "ReplicaSet/web-7d9f")
	c.addMeta(podsGVR, "Pod", "shop", "web-7d9f-fghij", "ReplicaSet/web-7d9f")
	c.addMeta(podsGVR, "Pod", "shop", "api-5c4b-zzzzz")
	c.objects[objectKey(podsGVR, "shop", "web-7d9f-fghij")] = podObject("web-7d9f-fghij", "Failed")
}

// opened is what the tree asked the app to open: the YAML of row, an object of res.
type opened struct {
	res discovery.Resource
	row *watch.Row
}

// openTree opens the tree of the object ns/name of resource as the app does with `t` (New, then Push), with
// the app's openers: the YAML views it opens are recorded in *yaml (read them under nav.UI), the kinds are
// the catalog's.
func openTree(t *testing.T, nav *navtest.Nav, c *fakeCluster, resource, ns, name string) (*View, *[]opened) {
	t.Helper()
	res, err := c.catalog.Resolve(t.Context(), resource)
	if err != nil {
		t.Fatal(err)
	}
	var yaml []opened
	openYAML := func(r discovery.Resource, row *watch.Row) { yaml = append(yaml, opened{r, row}) }
	forKind := func(apiVersion, kind string) (discovery.Resource, error) {
		gv, err := schema.ParseGroupVersion(apiVersion)
		if err != nil {
			return discovery.Resource{}, err
		}
		for _, r := range c.catalog.Resources() {
			if r.Group == gv.Group && r.Kind == kind {
				return r, nil
			}
		}
		return discovery.Resource{}, fmt.Errorf("no resource of kind %s in %s is served", kind, apiVersion)
	}
	row := &watch.Row{Key: ns + "/" + name, Namespace: ns, Name: name}
	s, err := New(nav, res, row, openYAML, forKind)
	if err != nil || s == nil {
		t.Fatal(err)
	}
	v := s.(*View)
	nav.UI(func() { nav.Push(v) })
	return v, &yaml
}

// screen draws v on a w×h screen, under nav.UI, and returns it as lines, trailing spaces trimmed. The app gives
// the tree its terminal's width and 4 lines less than its height (the header and the prompt and status lines).
func screen(nav *navtest.Nav, v *View, w, h int) string {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		panic(err)
	}
	defer scr.Fini()
	scr.SetSize(w, h)
	var b strings.Builder
	nav.UI(func() {
		v.root.SetRect(0, 0, w, h)
		v.root.Draw(scr)
		scr.Show()
		b.WriteString(navtest.CellsText(scr.GetContents()))
	})
	return b.String()
}

// waitScreen draws v on a w×h screen until it shows every one of want, and returns it; the test fails when
// it does not in time.
func waitScreen(t *testing.T, nav *navtest.Nav, v *View, w, h int, want ...string) string {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		scr := screen(nav, v, w, h)
		missing := ""
		for _, s := range want {
			if !strings.Contains(scr, s) {
				missing = s
				break
			}
		}
		if missing == "" {
			return scr
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tree never showed %q:\n%s", missing, scr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// contains fails the test when scr lacks each of want.
func contains(t *testing.T, scr string, want ...string) {
	t.Helper()
	for _, s := range want {
		if !strings.Contains(scr, s) {
			t.Errorf("the tree lacks %q:\n%s", s, scr)
		}
	}
}

func TestTreeView(t *testing.T) {
	c := fixtureCluster()
	withTree(c)
	nav := navtest.New(t, c)
	v, yaml := openTree(t, nav, c, "replicasets", "shop", "web-7d9f")
	scr := waitScreen(t, nav, v, 120, 26, "kinds listed in")
	for deadline := time.Now().Add(5 * time.Second); nav.Settles() != 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) { // (every kind listed: the lists' garbage is given back)
			t.Fatalf("settled %d times once every kind was listed, want 1", nav.Settles())
		}
	}
	contains(t, scr,
		"tree replicasets shop/web-7d9f",
		"ClusterWidget big",
		"└─ Deployment web",
		"   └─ ReplicaSet web-7d9f",
		"      ├─ Pod web-7d9f-abcde",
		"      └─ Pod web-7d9f-fghij",
		"not visible: secrets",
	)
	if strings.Contains(scr, "api-5c4b-zzzzz") { // an orphan is in no one's tree
		t.Errorf("the tree shows the orphan api-5c4b-zzzzz:\n%s", scr)
	}
	// Health as kstatus says: a running pod without a Ready condition, a failed one (kstatus: Current).
	scr = waitScreen(t, nav, v, 120, 26, "Pod has completed, but not successfully")
	contains(t, scr, "InProgress 60m Pod is running but is not Ready", "60m") // (60m: AGE)
	if c.namespace != "shop" {
		t.Errorf("tree listed namespace %q, want shop", c.namespace)
	}
	for _, k := range c.kinds {
		if k.GVR.Resource == "tokenreviews" {
			t.Errorf("tree lists %s, which cannot be listed", k.Name())
		}
	}
	if b := v.Bindings(); len(b) != 4 || b[0].Name != "help" || b[1].Label != "enter" || b[2].Label != "y" ||
		b[1].Name != "open" || b[2].Name != "yaml" || b[3].Name != "quit" {
		t.Errorf("bindings %+v, want help, enter and y (the node's YAML), quit", b)
	}

	// Live: a new pod of the replica set appears.
	c.addMeta(podsGVR, "Pod", "shop", "web-7d9f-newone", "ReplicaSet/web-7d9f")
	waitScreen(t, nav, v, 120, 26, "Pod web-7d9f-newone")
	// A tree that grows past the screen keeps its top in view (tview would follow the table's end).
	for i := range 40 {
		c.addMeta(podsGVR, "Pod", "shop", fmt.Sprintf("web-7d9f-more%02d", i), "ReplicaSet/web-7d9f")
	}
	deadline := time.Now().Add(wait)
	for n := 0; n != 46; { // drawn after each tree, as the app draws after each update
		screen(nav, v, 120, 26)
		nav.UI(func() { n = len(v.nodes) })
		if time.Now().After(deadline) {
			t.Fatalf("the tree has %d nodes, want 46", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	contains(t, screen(nav, v, 120, 26), "ClusterWidget big")
	nav.UI(func() {
		if got := v.Status(); got != "46 objects  enter: YAML" {
			t.Errorf("status %q", got)
		}
	})

	// Enter opens the selected node's YAML (the focus is selected: down goes to its first pod).
	nav.UI(func() {
		v.table.InputHandler()(tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone), func(tview.Primitive) {})
		v.openSelected()
		if len(*yaml) != 1 || (*yaml)[0].res.Name != "pods" || (*yaml)[0].row.Key != "shop/web-7d9f-abcde" ||
			(*yaml)[0].row.UID != "uid-web-7d9f-abcde" {
			t.Errorf("enter opened %+v, want the YAML of pods shop/web-7d9f-abcde", *yaml)
		}
	})
	nav.UI(v.Activate) // back from the YAML: the same tree, its lists and tick not started again
	contains(t, screen(nav, v, 120, 26), "tree replicasets shop/web-7d9f")
	if len(c.sources) != 1 || len(nav.Ticking()) != 1 {
		t.Errorf("%d tree sources, %d ticks after a second Activate; want 1 and 1", len(c.sources), len(nav.Ticking()))
	}

	// Esc closes the tree and stops its watches.
	nav.UI(v.Close)
	select {
	case <-c.sources[0].Done():
	case <-time.After(wait):
		t.Error("the tree's informers did not stop")
	}
}

func TestTreeViewMissingOwner(t *testing.T) {
	c := fixtureCluster()
	c.forbidden = []string{"replicasets"}
	c.addMeta(podsGVR, "Pod", "shop", "web-7d9f-abcde", "ReplicaSet/web-7d9f")
	c.catalog.Add(discovery.Resource{Group: "metrics.k8s.io", Version: "v1beta1", Name: "pods", SingularName: "pod",
		Kind: "PodMetrics", Verbs: []string{"get", "list"}, Namespaced: true})
	nav := navtest.New(t, c)
	v, yaml := openTree(t, nav, c, "pods", "shop", "web-7d9f-abcde")
	scr := waitScreen(t, nav, v, 120, 26, "kinds listed in")
	contains(t, scr,
		"ReplicaSet web-7d9f (not visible)",
		"not visible: replicasets.apps",
		"└─ Pod web-7d9f-abcde",
		"not in the tree (cannot be watched):",
		"pods.metrics.k8s.io",
	)
	// Enter on the missing owner opens its YAML, its resource found by the kind of the ownerReference.
	nav.UI(func() {
		v.table.Select(1, 0)
		v.openSelected()
		if len(*yaml) != 1 || (*yaml)[0].res.Name != "replicasets" || (*yaml)[0].row.Key != "shop/web-7d9f" {
			t.Errorf("enter on the missing owner opened %+v, want the YAML of replicasets shop/web-7d9f", *yaml)
		}
	})
}

// TestTreeViewManyNotVisible: beyond a few kinds, those not visible are named one a line under the tree,
// and the tree above them still starts at its root.
func TestTreeViewManyNotVisible(t *testing.T) {
	c := fixtureCluster()
	c.forbidden = []string{"replicasets", "configmaps", "events", "namespaces", "secrets", "deployments",
		"widgets", "clusterwidgets", "leases"}
	c.catalog.Add(discovery.Resource{Group: "shop.example.com", Version: "v1", Name: "clusterwidgets",
		SingularName: "clusterwidget", Kind: "ClusterWidget", Verbs: []string{"get", "list", "watch"}},
		discovery.Resource{Group: "coordination.k8s.io", Version: "v1", Name: "leases", SingularName: "lease",
			Kind: "Lease", Verbs: []string{"get", "list", "watch"}, Namespaced: true})
	c.addMeta(podsGVR, "Pod", "shop", "web-7d9f-abcde", "ReplicaSet/web-7d9f")
	nav := navtest.New(t, c)
	v, _ := openTree(t, nav, c, "pods", "shop", "web-7d9f-abcde")
	// (the footer and the chain's rows come from different answers of the tree source: wait for all)
	scr := waitScreen(t, nav, v, 120, 12, "not visible: 9 kinds you may not list, named under the tree",
		"ReplicaSet web-7d9f (not visible)", "└─ Pod web-7d9f-abcde")
	contains(t, scr, "not visible: configmaps")
}

// TestTreeViewSourceError: when the tree's source cannot be built, New says why, naming the object, and
// returns no screen (the app shows the error instead).
func TestTreeViewSourceError(t *testing.T) {
	c := fixtureCluster()
	c.treeErr = errors.New("no metadata client")
	res, _ := c.catalog.Resolve(t.Context(), "pods")
	s, err := New(navtest.New(t, c), res, &watch.Row{Key: "shop/web-7d9f-abcde", Namespace: "shop", Name: "web-7d9f-abcde"},
		nil, nil)
	if s != nil || err == nil || err.Error() != "tree of web-7d9f-abcde: no metadata client" || !errors.Is(err, c.treeErr) {
		t.Errorf("New = %v, %v; want no screen and the error, wrapped, naming the object", s, err)
	}
}

// TestTreeViewSelectionFollowsItsObject: when a new tree puts objects above the selected one (an owner listed
// late), the same object stays selected, not the row it was on.
func TestTreeViewSelectionFollowsItsObject(t *testing.T) {
	c := fixtureCluster()
	withTree(c)
	nav := navtest.New(t, c)
	v, _ := openTree(t, nav, c, "pods", "shop", "web-7d9f-abcde")
	node := func(kind, name string, role tree.Role) tree.Node {
		return tree.Node{Object: tree.Object{Kind: tree.Kind{Kind: kind}, Namespace: "shop", Name: name, UID: types.UID("uid-" + name)}, Role: role}
	}
	rs, pod := node("ReplicaSet", "web-7d9f", tree.Owner), node("Pod", "web-7d9f-abcde", tree.Focus)
	deploy := node("Deployment", "web", tree.Owner)
	nav.UI(func() {
		v.apply([]tree.Node{rs, pod}, tree.Progress{})
		if r, _ := v.table.GetSelection(); r != 2 {
			t.Fatalf("first tree: row %d selected, want 2 (the focus)", r)
		}
		v.apply([]tree.Node{deploy, rs, pod}, tree.Progress{})
		if r, _ := v.table.GetSelection(); r != 3 || v.nodes[r-1].Object.Name != "web-7d9f-abcde" {
			t.Errorf("after an owner above: row %d selected, want 3 (the focus still)", r)
		}
	})
}
