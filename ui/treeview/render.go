package treeview

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/types"

	"kscope/health"
	"kscope/tree"
	"kscope/watch"
)

// selectedUID is the UID of the node selected in the table as last rendered (from v.nodes), or "".
func (v *View) selectedUID() types.UID {
	if r, _ := v.table.GetSelection(); r >= 1 && r-1 < len(v.nodes) {
		return v.nodes[r-1].Object.UID
	}
	return ""
}

// render rewrites the head line and the table from v.nodes, selecting the node whose UID is selected (the
// focus, on the first render that shows it).
func (v *View) render(selected types.UID) {
	v.renderHead()
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
	now := v.nav.Clock().Now()
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
			age = watch.FormatAge(max(now.Sub(n.Object.Created), 0))
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
	v.nav.UpdateStatus(v)
}

// nodeName is a node's "Kind name" (with its namespace when it is not the tree's) and its marks.
func (v *View) nodeName(n tree.Node) string {
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
func (v *View) missingWhy(n tree.Node) string {
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
func (v *View) setHealthCells(r int, n tree.Node) {
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
func (v *View) renderHead() {
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
func (v *View) renderNotVisible(r int) {
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
