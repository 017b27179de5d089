package objectview

import (
	"context"
	"fmt"
	"strings"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/discovery"
	"kscope/health"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/watch"
)

// healthPanel is the header of a view of one object (YAML, describe): the object's health as kstatus computes
// it, and the conditions of its status (type, status, reason, last transition, message), which the `health`
// key shows or hides. It wraps the view's own widget. UI goroutine only, except follow's goroutine, which
// hands each state to the UI goroutine.
type healthPanel struct {
	nav   ui.Navigator
	text  *tview.TextView
	root  *tview.Flex
	h     health.Health
	known bool
	// hidden hides the conditions (the health line stays).
	hidden bool
}

// newHealthPanel returns the panel above content.
func newHealthPanel(nav ui.Navigator, content tview.Primitive) *healthPanel {
	p := &healthPanel{nav: nav, text: tview.NewTextView().SetDynamicColors(true).SetWrap(false)}
	p.root = tview.NewFlex().SetDirection(tview.FlexRow).AddItem(p.text, 0, 0, false).AddItem(content, 0, 1, true)
	return p
}

// primitive is the panel with the content under it.
func (p *healthPanel) primitive() tview.Primitive { return p.root }

// binding is the key that shows or hides the conditions.
func (p *healthPanel) binding() keymap.Binding {
	return keymap.Keys.Health.Panel.Bind(p.toggle)
}

func (p *healthPanel) toggle() {
	p.hidden = !p.hidden
	p.render()
}

// set shows the health of obj; deleted shows it as gone.
func (p *healthPanel) set(obj *unstructured.Unstructured, deleted bool) {
	switch {
	case deleted:
		p.h = health.Of(nil)
	case obj != nil:
		p.h = health.Of(obj)
	default:
		return
	}
	p.known = true
	p.render()
}

// follow watches the object (res, row) while life, its screen's, lasts and shows each state it takes. UI
// goroutine.
func (p *healthPanel) follow(life *screenlife.Life, res discovery.Resource, row *watch.Row) {
	events := p.nav.Cluster().WatchObject(life.Context(), res.GVR(), row.Namespace, row.Name)
	life.Go(func(context.Context) {
		for ev := range events {
			if ev.Err != nil {
				continue
			}
			life.Update(func() { p.set(ev.Object, ev.Deleted) })
		}
	})
}

// render writes the health line and, unless hidden, the conditions, and sizes the panel to them.
func (p *healthPanel) render() {
	if !p.known {
		return
	}
	lines := []string{fmt.Sprintf("[::b]health[::-] [%s]%s[-]  %s", tview.Escape(colourName(p.h.Status)),
		p.h.Status, tview.Escape(p.h.Message))}
	switch {
	case len(p.h.Conditions) == 0:
		lines[0] += "  [gray](no conditions)[-]"
	case p.hidden:
		lines[0] += fmt.Sprintf("  [gray](%d conditions hidden: shift-h)[-]", len(p.h.Conditions))
	default:
		lines = append(lines, p.conditionLines()...)
	}
	p.text.SetText(strings.Join(lines, "\n"))
	p.root.ResizeItem(p.text, len(lines), 0)
}

// conditionLines are the conditions as a table: a header, then one line each.
func (p *healthPanel) conditionLines() []string {
	now := p.nav.Clock().Now()
	rows := [][]string{{"TYPE", "STATUS", "REASON", "LAST TRANSITION", "MESSAGE"}}
	for _, c := range p.h.Conditions {
		when := ""
		if !c.LastTransition.IsZero() {
			when = watch.FormatAge(max(now.Sub(c.LastTransition), 0)) + " ago"
		}
		rows = append(rows, []string{c.Type, c.Status, c.Reason, when, strings.Join(strings.Fields(c.Message), " ")})
	}
	widths := make([]int, 4)
	for _, r := range rows {
		for i := range widths {
			widths[i] = max(widths[i], len(r[i]))
		}
	}
	out := make([]string, 0, len(rows))
	for i, r := range rows {
		var b strings.Builder
		for j := range widths {
			fmt.Fprintf(&b, "%-*s  ", widths[j], r[j])
		}
		b.WriteString(r[4])
		line := tview.Escape(b.String())
		if i == 0 {
			line = "[gray]" + line + "[-]"
		}
		out = append(out, line)
	}
	return out
}

// colourName is the tview colour a status is shown in.
func colourName(s health.Status) string {
	switch s {
	case health.Current:
		return "green"
	case health.InProgress:
		return "yellow"
	case health.Failed:
		return "red"
	case health.Terminating:
		return "fuchsia"
	}
	return "gray"
}
