package treeview

import (
	"context"
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/tree"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/watch"
)

// View shows an object's relationship tree, live: its owners up to the root and everything it owns, found
// through the ownerReferences of every object of every listable kind (a cluster.TreeSource), with each
// node's kind, name, health and age. A line above the tree tells how the listing stands and names the kinds
// the user may not list. A goroutine of its own rebuilds the tree after the source's notifications (spaced
// by Navigator.SpaceRedraw) and hands it to the UI goroutine; the health of the nodes is read by treeHealth.
// Its methods run on the UI goroutine.
type View struct {
	ui.BaseScreen
	nav             ui.Navigator
	openYAML        func(discovery.Resource, *watch.Row)
	resourceForKind func(apiVersion, kind string) (discovery.Resource, error)
	res             discovery.Resource
	row             *watch.Row
	src             cluster.TreeSource
	byKind          map[tree.Kind]discovery.Resource
	// unwatched names the resources that can be listed but not watched (not in the tree).
	unwatched []string
	health    *treeHealth

	head  *tview.TextView
	table *tview.Table
	root  *tview.Flex

	nodes    []tree.Node
	rows     map[types.UID]int // the table row of each node shown, by UID
	progress tree.Progress
	built    bool            // a tree (or its absence) was built after every kind was listed
	chosen   bool            // the focus was selected once
	life     screenlife.Life // the lists and watches, the health reads, the rebuilds and the tick
}

// New returns the relationship tree of row, an object of res (its Spec's object key, `t`), over the
// metadata of every kind nav's cluster can list and watch, in row's namespace when res is namespaced.
// openYAML opens an object's YAML view (Enter on a node); resourceForKind finds the catalog's resource of
// an ownerReference's apiVersion and kind (a node missing from the lists). It returns an error, and a nil
// screen, when the tree's source cannot be built. UI goroutine.
func New(nav ui.Navigator, res discovery.Resource, row *watch.Row, openYAML func(discovery.Resource, *watch.Row),
	resourceForKind func(apiVersion, kind string) (discovery.Resource, error)) (ui.Screen, error) {
	kinds, byKind, unwatched := treeKinds(nav.Cluster().Catalog().Resources())
	ns := ""
	if res.Namespaced {
		ns = row.Namespace
	}
	src, err := nav.Cluster().NewTreeSource(kinds, ns)
	if err != nil {
		return nil, fmt.Errorf("tree of %s: %w", row.Name, err)
	}
	v := newView(nav, res, row, src, byKind)
	v.unwatched = unwatched
	v.openYAML, v.resourceForKind = openYAML, resourceForKind
	return v, nil
}

func newView(nav ui.Navigator, res discovery.Resource, row *watch.Row, src cluster.TreeSource, byKind map[tree.Kind]discovery.Resource) *View {
	v := &View{nav: nav, res: res, row: row, src: src, byKind: byKind, rows: map[types.UID]int{}}
	v.health = newTreeHealth(nav, v.healthRead)
	v.head = tview.NewTextView().SetDynamicColors(true).SetWrap(true)
	v.table = tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)
	v.table.SetSelectedStyle(tcell.StyleDefault.Background(tcell.ColorAqua).Foreground(tcell.ColorBlack))
	v.root = tview.NewFlex().SetDirection(tview.FlexRow).AddItem(v.head, 1, 0, false).AddItem(v.table, 0, 1, true)
	v.root.SetBorder(true).SetTitle(fmt.Sprintf(" [aqua::b]tree[white] %s %s ", tview.Escape(res.Name), tview.Escape(row.Key)))
	return v
}

// Crumb is "tree" and the object's name.
func (v *View) Crumb() string { return "tree " + v.row.Name }

// Primitive is the box: the head line over the tree's table.
func (v *View) Primitive() tview.Primitive { return v.root }

// Bindings are the tree's keys: open a node's YAML.
func (v *View) Bindings() []keymap.Binding {
	return []keymap.Binding{
		v.nav.HelpBinding(),
		keys.Open.Bind(v.openSelected),
		keys.YAML.Bind(v.openSelected),
		v.nav.QuitBinding(),
	}
}

// Activate starts, the first time, the lists and watches, the health reads and the goroutine that rebuilds
// the tree, and the tick that refreshes the ages while the view is on top; then draws.
func (v *View) Activate() {
	v.life.Start(v.nav, func(ctx context.Context) {
		v.src.Start(ctx)
		v.health.start(ctx, v.nav.Cluster())
		v.life.Go(v.loop)
		v.life.Tick(v, func() { v.render(v.selectedUID()) })
	})
	v.render(v.selectedUID())
}

// Close stops the lists and watches off the UI goroutine (Stop waits for the informers).
func (v *View) Close() {
	v.life.Stop()
	v.nav.Go(v.src.Stop)
}

// loop rebuilds the tree after each (coalesced) notification. Its own goroutine.
func (v *View) loop(ctx context.Context) {
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.src.Notify():
			if !v.nav.SpaceRedraw(ctx, &last) {
				return
			}
			p := v.src.Progress() // before the objects: a tree built after the last kind is complete
			nodes := v.build(v.src.Objects())
			v.life.Update(func() { v.apply(nodes, p) })
		}
	}
}

// build lays out the tree of the view's object among objects (found by resource, namespace and name, so
// that an object re-created under its name is followed). Any goroutine.
func (v *View) build(objects []tree.Object) []tree.Node {
	gvr := v.res.GVR()
	for _, o := range objects {
		if o.Kind.GVR == gvr && o.Namespace == v.row.Namespace && o.Name == v.row.Name {
			return tree.Build(objects, o.UID)
		}
	}
	return nil
}

// settler is the navigator's optional Settle (ui.App's): the work of opening something big is done, and
// what it allocated beyond what it keeps may be given back. Off the UI goroutine.
type settler interface{ Settle() }

// apply shows a new tree and queues the health reads it needs.
func (v *View) apply(nodes []tree.Node, p tree.Progress) {
	selected := v.selectedUID() // (read from the nodes the table shows, before they are replaced)
	v.nodes, v.progress = nodes, p
	if s, ok := v.nav.(settler); ok && !v.built && p.Complete > 0 {
		v.nav.Go(s.Settle) // every kind listed: the lists' garbage given back at once
	}
	v.built = v.built || p.Complete > 0
	v.health.want(nodes)
	v.render(selected)
}

// healthRead shows the health just read for the node with uid.
func (v *View) healthRead(uid types.UID) {
	if i, ok := v.rows[uid]; ok && i-1 < len(v.nodes) {
		v.setHealthCells(i, v.nodes[i-1])
	}
}

// Status names the keys.
func (v *View) Status() string {
	return fmt.Sprintf("%d objects  enter: YAML", len(v.nodes))
}

// openSelected opens the selected node's YAML.
func (v *View) openSelected() {
	r, _ := v.table.GetSelection()
	if r < 1 || r-1 >= len(v.nodes) {
		return
	}
	n := v.nodes[r-1]
	o := n.Object
	res, ok := v.byKind[o.Kind]
	if n.Missing {
		var err error
		if res, err = v.resourceForKind(n.Ref.APIVersion, n.Ref.Kind); err != nil {
			v.nav.Errorf("%s", err.Error())
			return
		}
		ok = true
		if !res.Namespaced {
			o.Namespace = ""
		}
	}
	if !ok {
		v.nav.Errorf("%s is of no resource this cluster serves", o.Name)
		return
	}
	key := o.Name
	if o.Namespace != "" {
		key = o.Namespace + "/" + o.Name
	}
	v.openYAML(res, &watch.Row{Key: key, Namespace: o.Namespace, Name: o.Name, UID: o.UID,
		ResourceVersion: o.ResourceVersion, Created: o.Created})
}
