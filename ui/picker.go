package ui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
)

// ResourcePicker is the start screen: every API resource the catalog knows, filtered as the user types,
// resources that cannot be listed and watched dimmed with the reason. It reloads when the catalog changes.
// UI goroutine only.
type ResourcePicker struct {
	BaseScreen
	app    *App
	table  *tview.Table
	filter string
	wide   bool
	shown  []discovery.Resource
	// snap moves the selection to an exact match of the filter on the next reload (set when typing).
	snap bool
}

// NewResourcePicker returns the picker over a's catalog.
func NewResourcePicker(a *App) *ResourcePicker {
	p := &ResourcePicker{app: a, table: tview.NewTable()}
	p.table.SetFixed(1, 0).SetSelectable(true, false).SetBorder(true)
	p.table.SetSelectedStyle(a.theme.Cursor)
	p.table.SetSelectionChangedFunc(func(int, int) { a.updateStatus(p) })
	p.reload()
	return p
}

func (p *ResourcePicker) Crumb() string              { return "resources" }
func (p *ResourcePicker) Primitive() tview.Primitive { return p.table }
func (p *ResourcePicker) Activate()                  { p.reload() }
func (p *ResourcePicker) Close()                     {}

// Bindings are the picker's keys; letters type into its filter (typed), so wide is ctrl-w here.
func (p *ResourcePicker) Bindings() []keymap.Binding {
	return []keymap.Binding{
		p.app.HelpBinding(),
		keymap.Keys.Picker.Filter.Bind(p.openFilterBar),
		keymap.Keys.Picker.Open.Bind(p.enter),
		keymap.Keys.Picker.Wide.Bind(p.toggleWide),
	}
}

// Escape clears the filter; the picker is the bottom of the stack, so esc never goes further.
func (p *ResourcePicker) Escape() bool {
	if p.filter != "" {
		p.filter = ""
		p.reload()
	}
	return true
}

func (p *ResourcePicker) openFilterBar() {
	p.app.bar.Open("/", "", func(text string) {
		p.filter = text
		p.reload()
	}, nil)
}

func (p *ResourcePicker) toggleWide() {
	p.wide = !p.wide
	p.reload()
}

// Typed handles a key the key table did not: characters of resource names extend the filter, Backspace
// shortens it. It tells whether it used the key.
func (p *ResourcePicker) Typed(ev *tcell.EventKey) bool {
	switch ev.Key() {
	case tcell.KeyRune:
		r := ev.Rune()
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			p.filter += string(r)
			p.snap = true
			p.reload()
			return true
		}
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if p.filter != "" {
			p.filter = p.filter[:len(p.filter)-1]
			p.reload()
		}
		return true
	}
	return false
}

// selected returns the resource under the cursor.
func (p *ResourcePicker) selected() (discovery.Resource, bool) {
	row, _ := p.table.GetSelection()
	if row < 1 || row > len(p.shown) {
		return discovery.Resource{}, false
	}
	return p.shown[row-1], true
}

// reload rebuilds the rows from the catalog and the filter, keeping the selected resource if still shown.
func (p *ResourcePicker) reload() {
	prev, hadPrev := p.selected()
	all := p.app.cluster.Catalog().Resources()
	p.shown = p.shown[:0]
	for _, r := range all {
		if matchesResource(r, p.filter) {
			p.shown = append(p.shown, r)
		}
	}
	p.table.Clear()
	headers := append(discovery.ResourceColumns(p.wide), "NOTE")
	for c, h := range headers {
		p.table.SetCell(0, c, tview.NewTableCell(h+livetable.ColumnGap).SetStyle(p.app.theme.Header).SetSelectable(false))
	}
	exact, kept := -1, -1
	for i, r := range p.shown {
		note := unlistableReason(r)
		cells := append(discovery.ResourceCells(r, p.wide), note)
		color := p.app.theme.RowFg
		if note != "" {
			color = p.app.theme.Dim
		}
		for c, text := range cells {
			p.table.SetCell(i+1, c, tview.NewTableCell(tview.Escape(text)+livetable.ColumnGap).SetTextColor(color))
		}
		if hadPrev && r.FullName() == prev.FullName() {
			kept = i
		}
		if exact < 0 && p.snap && p.filter != "" && exactResource(r, p.filter) {
			exact = i
		}
	}
	sel := max(kept, 0)
	if exact >= 0 {
		sel = exact
	}
	p.snap = false
	p.table.Select(sel+1, 0)
	th := p.app.theme
	title := fmt.Sprintf(" %sresources%s[%d] ", th.Title, th.Counter, len(p.shown))
	if p.filter != "" {
		title += fmt.Sprintf("%s</%s> ", th.Filter, tview.Escape(p.filter))
	}
	p.table.SetTitle(title)
}

// Status shows the keys, or why the selected resource cannot be opened.
func (p *ResourcePicker) Status() string {
	if r, ok := p.selected(); ok {
		if reason := unlistableReason(r); reason != "" {
			return "[yellow]" + tview.Escape(r.FullName()+": "+reason) + "[-]"
		}
	}
	return "[gray]type to filter · enter: open · ctrl-w: wide · :command · ?: help · ctrl-c: quit[-]"
}

// enter opens the selected resource.
func (p *ResourcePicker) enter() {
	if r, ok := p.selected(); ok {
		p.app.openTop(r)
	}
}

// matchesResource tells whether r's name, short names, kind or group contain filter (case-insensitive).
func matchesResource(r discovery.Resource, filter string) bool {
	if filter == "" {
		return true
	}
	f := strings.ToLower(filter)
	for _, s := range append([]string{r.Name, r.Kind, r.Group, r.SingularName}, r.ShortNames...) {
		if strings.Contains(strings.ToLower(s), f) {
			return true
		}
	}
	return false
}

// exactResource tells whether filter names r exactly (name, singular, short name or kind).
func exactResource(r discovery.Resource, filter string) bool {
	f := strings.ToLower(filter)
	for _, s := range append([]string{r.Name, r.SingularName, strings.ToLower(r.Kind), r.FullName()}, r.ShortNames...) {
		if s == f {
			return true
		}
	}
	return false
}

// unlistableReason says why r cannot be shown as a live table, or "" if it can.
func unlistableReason(r discovery.Resource) string {
	var missing []string
	for _, v := range []string{"list", "watch"} {
		if !r.Has(v) {
			missing = append(missing, v)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return "no " + strings.Join(missing, "/") + " (verbs: " + strings.Join(r.Verbs, ",") + ")"
}
