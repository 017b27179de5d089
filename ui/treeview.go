package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/types"

	"kscope/discovery"
	"kscope/health"
	"kscope/tree"
	"kscope/watch"
)

// TreeView shows an object's relationship tree, live: its owners up to the root and everything it owns, found
// through the ownerReferences of every object of every listable kind (a TreeSource), with each node's kind,
// name, health and age. A line above the tree tells how the listing stands and names the kinds the user may
// not list. A goroutine of its own rebuilds the tree after the source's notifications (at most once per
// Options.MinRedraw) and hands it to the UI goroutine; the health of the nodes is read by treeHealth.
type TreeView struct {
	BaseScreen
	app    *App
	res    discovery.Resource
	row    *watch.Row
	src    TreeSource
	byKind map[tree.Kind]discovery.Resource
	// unwatched names the resources that can be listed but not watched (not in the tree).
	unwatched []string
	health    *treeHealth

	head  *tview.TextView
	table *tview.Table
	root  *tview.Flex

	nodes    []tree.Node
	rows     map[types.UID]int // the table row of each node shown, by UID
	progress tree.Progress
	built    bool // a tree (or its absence) was built after every kind was listed
	chosen   bool // the focus was selected once
	cancel   context.CancelFunc
}

// openTree pushes the relationship tree of row, an object of res.
func (a *App) openTree(res discovery.Resource, row *watch.Row) {
	kinds, byKind, unwatched := treeKinds(a.cluster.Catalog().Resources())
	ns := ""
	if res.Namespaced {
		ns = row.Namespace
	}
	src, err := a.cluster.NewTreeSource(kinds, ns)
	if err != nil {
		a.errorf("tree of %s: %s", row.Name, err)
		return
	}
	v := newTreeView(a, res, row, src, byKind)
	v.unwatched = unwatched
	a.push(v)
}

func newTreeView(a *App, res discovery.Resource, row *watch.Row, src TreeSource, byKind map[tree.Kind]discovery.Resource) *TreeView {
	v := &TreeView{app: a, res: res, row: row, src: src, byKind: byKind, rows: map[types.UID]int{}}
	v.health = newTreeHealth(a, v.healthRead)
	v.head = tview.NewTextView().SetDynamicColors(true).SetWrap(true)
	v.table = tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)
	v.table.SetSelectedStyle(tcell.StyleDefault.Background(tcell.ColorAqua).Foreground(tcell.ColorBlack))
	v.root = tview.NewFlex().SetDirection(tview.FlexRow).AddItem(v.head, 1, 0, false).AddItem(v.table, 0, 1, true)
	v.root.SetBorder(true).SetTitle(fmt.Sprintf(" [aqua::b]tree[white] %s %s ", tview.Escape(res.Name), tview.Escape(row.Key)))
	return v
}

func (v *TreeView) Crumb() string              { return "tree " + v.row.Name }
func (v *TreeView) Primitive() tview.Primitive { return v.root }

// Bindings are the tree's keys: open a node's YAML.
func (v *TreeView) Bindings() []Binding {
	return []Binding{
		v.app.HelpBinding(),
		Keys.Tree.Open.Bind(v.openSelected),
		Keys.Tree.YAML.Bind(v.openSelected),
		v.app.QuitBinding(),
	}
}

func (v *TreeView) Activate() {
	if v.cancel == nil {
		ctx, cancel := context.WithCancel(v.app.ctx)
		v.cancel = cancel
		v.src.Start(ctx)
		v.health.start(ctx, v.app.cluster)
		v.app.goSafe(func() { v.loop(ctx) })
	}
	v.render()
}

// Close stops the lists and watches off the UI goroutine (Stop waits for the informers).
func (v *TreeView) Close() {
	if v.cancel != nil {
		v.cancel()
	}
	v.app.goSafe(v.src.Stop)
}

// loop rebuilds the tree after each (coalesced) notification and refreshes the ages every Tick.
func (v *TreeView) loop(ctx context.Context) {
	var tick <-chan time.Time
	if v.app.opts.Tick > 0 {
		ticker := v.app.opts.Clock.NewTicker(v.app.opts.Tick)
		defer ticker.Stop()
		tick = ticker.C()
	}
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.src.Notify():
			if !v.app.SpaceRedraw(ctx, &last) {
				return
			}
			p := v.src.Progress() // before the objects: a tree built after the last kind is complete
			nodes := v.build(v.src.Objects())
			v.app.tv.QueueUpdateDraw(func() {
				if ctx.Err() == nil {
					v.apply(nodes, p)
				}
			})
		case <-tick:
			v.app.tv.QueueUpdateDraw(func() {
				if ctx.Err() == nil && v.app.top() == v {
					v.render()
				}
			})
		}
	}
}

// build lays out the tree of the view's object among objects (found by resource, namespace and name, so
// that an object re-created under its name is followed). Any goroutine.
func (v *TreeView) build(objects []tree.Object) []tree.Node {
	gvr := v.res.GVR()
	for _, o := range objects {
		if o.Kind.GVR == gvr && o.Namespace == v.row.Namespace && o.Name == v.row.Name {
			return tree.Build(objects, o.UID)
		}
	}
	return nil
}

// apply shows a new tree and queues the health reads it needs.
func (v *TreeView) apply(nodes []tree.Node, p tree.Progress) {
	v.nodes, v.progress = nodes, p
	v.built = v.built || p.Complete > 0
	v.health.want(nodes)
	v.render()
}

// healthRead shows the health just read for the node with uid.
func (v *TreeView) healthRead(uid types.UID) {
	if i, ok := v.rows[uid]; ok && i-1 < len(v.nodes) {
		v.setHealthCells(i, v.nodes[i-1])
	}
}

// render rewrites the head line and the table, keeping the selected object selected.
func (v *TreeView) render() {
	v.renderHead()
	var selected types.UID
	if r, _ := v.table.GetSelection(); r >= 1 && r-1 < len(v.nodes) {
		selected = v.nodes[r-1].Object.UID
	}
	rowOffset, colOffset := v.table.GetOffset()
	v.table.Clear()
	// A tree that grows keeps its scroll position (tview would follow the end of a table that once fit).
	v.table.SetOffset(rowOffset, colOffset)
	for c, h := range []string{"OBJECT", "HEALTH", "AGE", "MESSAGE"} {
		v.table.SetCell(0, c, tview.NewTableCell(h).SetSelectable(false).SetTextColor(tcell.ColorYellow).
			SetAttributes(tcell.AttrBold))
	}
	clear(v.rows)
	focusRow := 0
	now := v.app.opts.Clock.Now()
	for i, n := range v.nodes {
		r := i + 1
		if n.Role == tree.Focus {
			focusRow = r
		}
		v.rows[n.Object.UID] = r
		name := v.nodeName(n)
		cell := tview.NewTableCell(tview.Escape(n.Prefix + name))
		if n.Role == tree.Focus {
			cell.SetAttributes(tcell.AttrBold).SetTextColor(tcell.ColorAqua)
		}
		v.table.SetCell(r, 0, cell)
		age := ""
		if !n.Object.Created.IsZero() {
			age = formatAge(now.Sub(n.Object.Created))
		}
		v.table.SetCell(r, 2, tview.NewTableCell(age))
		v.setHealthCells(r, n)
	}
	v.renderNotVisible(len(v.nodes) + 2)
	switch {
	case !v.chosen && focusRow > 0:
		v.table.ScrollToBeginning() // the owners above the focus in view
		v.table.Select(focusRow, 0)
		v.chosen = true
	case selected != "":
		if r, ok := v.rows[selected]; ok {
			v.table.Select(r, 0)
		}
	}
	v.app.updateStatus(v)
}

// nodeName is a node's "Kind name" (with its namespace when it is not the tree's) and its marks.
func (v *TreeView) nodeName(n tree.Node) string {
	o := n.Object
	name := o.Kind.Kind + " " + o.Name
	if o.Namespace != "" && o.Namespace != v.row.Namespace {
		name = o.Kind.Kind + " " + o.Namespace + "/" + o.Name
	}
	switch {
	case n.Repeat:
		name += " (shown above)"
	case n.Missing:
		name += " (" + v.missingWhy(n) + ")"
	}
	if len(n.OtherOwners) > 0 {
		name += " (also owned by " + strings.Join(n.OtherOwners, ", ") + ")"
	}
	return name
}

// missingWhy tells why an owner no list holds is missing: its kind is not visible, or it is gone.
func (v *TreeView) missingWhy(n tree.Node) string {
	for k, r := range v.byKind {
		if r.Kind == n.Ref.Kind && r.Group == n.Object.Kind.GVR.Group {
			for _, nv := range v.progress.NotVisible {
				if nv == k.Name() {
					return "not visible"
				}
			}
			return "not found"
		}
	}
	return "kind not served"
}

// setHealthCells fills row r's HEALTH and MESSAGE cells for node n.
func (v *TreeView) setHealthCells(r int, n tree.Node) {
	status, message, colour := "", "", tcell.ColorGray
	h, ok := v.health.known(n.Object.UID)
	switch {
	case n.Missing:
	case ok:
		status, message, colour = string(h.Status), h.Message, healthColour(h.Status)
	case n.Object.Deleting:
		status, colour = string(health.Terminating), healthColour(health.Terminating)
	default:
		status = "…"
	}
	v.table.SetCell(r, 1, tview.NewTableCell(status).SetTextColor(colour))
	v.table.SetCell(r, 3, tview.NewTableCell(tview.Escape(message)).SetTextColor(tcell.ColorGray))
}

// healthColour is the colour a status is shown in.
func healthColour(s health.Status) tcell.Color {
	switch s {
	case health.Current:
		return tcell.ColorGreen
	case health.InProgress:
		return tcell.ColorYellow
	case health.Failed:
		return tcell.ColorRed
	case health.Terminating:
		return tcell.ColorFuchsia
	}
	return tcell.ColorGray
}

// renderHead writes the line above the tree: the listing's progress or cost, the kinds not visible and
// those failing.
func (v *TreeView) renderHead() {
	p := v.progress
	var parts []string
	switch {
	case p.Total == 0:
		parts = append(parts, "[yellow]listing…[-]")
	case p.Complete == 0:
		parts = append(parts, fmt.Sprintf("[yellow]listing %d of %d kinds…[-]", p.Listed, p.Total))
	default:
		line := fmt.Sprintf("[green]live[-]: %d kinds listed in %s", p.Total, p.Complete.Round(time.Millisecond))
		if p.Requests > 0 {
			line += fmt.Sprintf(", %d requests, %s", p.Requests, byteSize(p.Bytes))
		}
		parts = append(parts, line)
	}
	if len(v.nodes) > treeHealthNodes {
		parts = append(parts, fmt.Sprintf("health of the first %d of %d objects", treeHealthNodes, len(v.nodes)))
	}
	if v.built && v.nodes == nil {
		parts = append(parts, fmt.Sprintf("[red]%s %s not found[-]", tview.Escape(v.res.Name), tview.Escape(v.row.Key)))
	}
	if n := len(p.NotVisible); n > notVisibleInHead {
		parts = append(parts, fmt.Sprintf("[red]not visible: %d kinds you may not list, named under the tree[-]", n))
	} else if n > 0 {
		parts = append(parts, "[red]not visible: "+tview.Escape(strings.Join(p.NotVisible, ", "))+"[-]")
	}
	if len(p.Failed) > 0 {
		parts = append(parts, "[red]failed: "+tview.Escape(strings.Join(p.Failed, "; "))+"[-]")
	}
	if len(v.unwatched) > 0 {
		parts = append(parts, "[gray]not in the tree (cannot be watched): "+tview.Escape(strings.Join(v.unwatched, ", "))+"[-]")
	}
	if len(p.Retrying) > 0 {
		parts = append(parts, "[yellow]retrying: "+tview.Escape(strings.Join(p.Retrying, "; "))+"[-]")
	}
	text := strings.Join(parts, " · ")
	v.head.SetText(text)
	_, _, width, _ := v.root.GetInnerRect()
	lines := 1
	if width > 0 {
		lines = min(max(1, (tview.TaggedStringWidth(text)+width-1)/width), 4)
	}
	v.root.ResizeItem(v.head, lines, 0)
}

// notVisibleInHead is how many kinds not visible the head line names; more are named under the tree.
const notVisibleInHead = 8

// renderNotVisible names, from table row r on, the kinds the user may not list, when the head line does not.
func (v *TreeView) renderNotVisible(r int) {
	if len(v.progress.NotVisible) <= notVisibleInHead {
		return
	}
	for _, name := range v.progress.NotVisible {
		v.table.SetCell(r, 0, tview.NewTableCell("not visible: "+tview.Escape(name)).SetSelectable(false).
			SetTextColor(tcell.ColorRed))
		r++
	}
}

// byteSize is n bytes as "12.3 MB" (decimal units).
func byteSize(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// Status names the keys.
func (v *TreeView) Status() string {
	return fmt.Sprintf("%d objects  enter: YAML", len(v.nodes))
}

// openSelected opens the selected node's YAML.
func (v *TreeView) openSelected() {
	r, _ := v.table.GetSelection()
	if r < 1 || r-1 >= len(v.nodes) {
		return
	}
	n := v.nodes[r-1]
	o := n.Object
	res, ok := v.byKind[o.Kind]
	if n.Missing {
		var err error
		if res, err = v.app.resourceForKind(n.Ref.APIVersion, n.Ref.Kind); err != nil {
			v.app.errorf("%s", err.Error())
			return
		}
		ok = true
		if !res.Namespaced {
			o.Namespace = ""
		}
	}
	if !ok {
		v.app.errorf("%s is of no resource this cluster serves", o.Name)
		return
	}
	key := o.Name
	if o.Namespace != "" {
		key = o.Namespace + "/" + o.Name
	}
	v.app.openYAML(res, &watch.Row{Key: key, Namespace: o.Namespace, Name: o.Name, UID: o.UID,
		ResourceVersion: o.ResourceVersion, Created: o.Created})
}
