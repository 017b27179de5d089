package picker

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/ui/theme"
)

// Host is what the picker asks of the app that shows it. Its methods run on the UI goroutine.
type Host interface {
	// HelpBinding is `?`.
	HelpBinding() keymap.Binding
	// Ask asks for a line of text on the prompt line (the filter), after label; done receives it on Enter.
	Ask(label, initial string, done func(text string))
	// StatusChanged tells the app that the picker's Status changed (the selection moved).
	StatusChanged()
	// Theme is the UI's colours.
	Theme() *theme.Theme
	// Resources are the catalog's resources, read at each reload.
	Resources() []discovery.Resource
	// Open opens r's live table (Enter).
	Open(r discovery.Resource)
}

// Picker is the start screen: every API resource the catalog knows, filtered as the user types,
// resources that cannot be listed and watched dimmed with the reason. It reloads when the catalog changes.
// UI goroutine only.
type Picker struct {
	host   Host
	table  *tview.Table
	filter string
	wide   bool
	shown  []discovery.Resource
	// snap moves the selection to an exact match of the filter on the next reload (set when typing).
	snap bool
}

// New returns the picker over h's catalog. UI goroutine.
func New(h Host) *Picker {
	p := &Picker{host: h, table: tview.NewTable()}
	p.table.SetFixed(1, 0).SetSelectable(true, false).SetBorder(true)
	p.table.SetSelectedStyle(h.Theme().Cursor)
	p.table.SetSelectionChangedFunc(func(int, int) { h.StatusChanged() })
	p.Reload()
	return p
}

func (p *Picker) Crumb() string              { return "resources" }
func (p *Picker) Primitive() tview.Primitive { return p.table }
func (p *Picker) Activate()                  { p.Reload() }
func (p *Picker) Close()                     {}

// NamespaceChanged implements ui.Screen: the resources are the same in every namespace.
func (p *Picker) NamespaceChanged(string) {}

// Bindings are the picker's keys; letters type into its filter (typed), so wide is ctrl-w here.
func (p *Picker) Bindings() []keymap.Binding {
	return []keymap.Binding{
		p.host.HelpBinding(),
		keymap.Keys.Picker.Filter.Bind(p.openFilterBar),
		keymap.Keys.Picker.Open.Bind(p.enter),
		keymap.Keys.Picker.Wide.Bind(p.toggleWide),
	}
}

// Escape clears the filter; the picker is the bottom of the stack, so esc never goes further.
func (p *Picker) Escape() bool {
	if p.filter != "" {
		p.filter = ""
		p.Reload()
	}
	return true
}

func (p *Picker) openFilterBar() {
	p.host.Ask("/", "", func(text string) {
		p.filter = text
		p.Reload()
	})
}

func (p *Picker) toggleWide() {
	p.wide = !p.wide
	p.Reload()
}

// Typed handles a key the key table did not: characters of resource names extend the filter, Backspace
// shortens it. It tells whether it used the key.
func (p *Picker) Typed(ev *tcell.EventKey) bool {
	switch ev.Key() {
	case tcell.KeyRune:
		r := ev.Rune()
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			p.filter += string(r)
			p.snap = true
			p.Reload()
			return true
		}
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if p.filter != "" {
			p.filter = p.filter[:len(p.filter)-1]
			p.Reload()
		}
		return true
	}
	return false
}

// selected returns the resource under the cursor.
func (p *Picker) selected() (discovery.Resource, bool) {
	row, _ := p.table.GetSelection()
	if row < 1 || row > len(p.shown) {
		return discovery.Resource{}, false
	}
	return p.shown[row-1], true
}

// Reload rebuilds the rows from the catalog and the filter, keeping the selected resource if still shown (the
// app calls it when the catalog changes). UI goroutine.
func (p *Picker) Reload() {
	prev, hadPrev := p.selected()
	all := p.host.Resources()
	p.shown = p.shown[:0]
	for _, r := range all {
		if matchesResource(r, p.filter) {
			p.shown = append(p.shown, r)
		}
	}
	p.table.Clear()
	headers := append(discovery.ResourceColumns(p.wide), "NOTE")
	for c, h := range headers {
		p.table.SetCell(0, c, tview.NewTableCell(h+livetable.ColumnGap).SetStyle(p.host.Theme().Header).SetSelectable(false))
	}
	exact, kept := -1, -1
	for i, r := range p.shown {
		note := Unlistable(r)
		cells := append(discovery.ResourceCells(r, p.wide), note)
		color := p.host.Theme().RowFg
		if note != "" {
			color = p.host.Theme().Dim
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
	th := p.host.Theme()
	title := fmt.Sprintf(" %sresources%s[%d] ", th.Title, th.Counter, len(p.shown))
	if p.filter != "" {
		title += fmt.Sprintf("%s</%s> ", th.Filter, tview.Escape(p.filter))
	}
	p.table.SetTitle(title)
}

// Status shows the keys, or why the selected resource cannot be opened.
func (p *Picker) Status() string {
	if r, ok := p.selected(); ok {
		if reason := Unlistable(r); reason != "" {
			return "[yellow]" + tview.Escape(r.FullName()+": "+reason) + "[-]"
		}
	}
	return "[gray]type to filter · enter: open · ctrl-w: wide · :command · ?: help · ctrl-c: quit[-]"
}

// enter opens the selected resource.
func (p *Picker) enter() {
	if r, ok := p.selected(); ok {
		p.host.Open(r)
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

// Unlistable says why r cannot be shown as a live table, or "" if it can.
func Unlistable(r discovery.Resource) string {
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
