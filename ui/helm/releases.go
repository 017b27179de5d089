package helm

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/helm"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/ui/screenlife"
	"kscope/ui/verbs"
	"kscope/watch"
)

// flashFor and ghostFor are how long a changed release's row flashes and a gone one stays dimmed.
const (
	flashFor = 3 * time.Second
	ghostFor = 3 * time.Second
)

// Releases is the live table of Helm releases (`:helm`): one row per release, its latest revision. UI
// goroutine only, but for its source's goroutines.
type Releases struct {
	ui.BaseScreen
	nav     ui.Navigator
	rows    cluster.RowSource // a helm.Source, or a union of them (place.go)
	title   string            // what it shows: namespaces, contexts (title)
	table   *tview.Table
	content *livetable.RowContent
	filter  watch.Filter
	guard   Guard
	session ui.Session
	guards  map[string]ui.WriteGuard // guardOf's
	life    screenlife.Life          // the source, its follower and the tick that ages the rows
}

// NewReleases returns the table of the releases rows lists (a helm.Source, or a union of them: place.go), in
// s, titled title; its first show starts rows, its Close stops it. guard checks the writes in the view's
// cluster (nil: none is offered).
func NewReleases(s ui.Session, rows cluster.RowSource, title string, guard Guard) *Releases {
	v := &Releases{nav: s, rows: rows, title: title, guard: guard, session: s, content: livetable.NewRowContent(s.Clock().Now, flashFor, ghostFor)}
	v.content.SetTheme(s.Theme())
	v.table = tview.NewTable().SetContent(v.content).SetFixed(1, 0).SetSelectable(true, false)
	v.table.SetBorder(true)
	v.table.SetSelectedStyle(s.Theme().Cursor)
	return v
}

func (v *Releases) Crumb() string              { return "helm" }
func (v *Releases) Primitive() tview.Primitive { return v.table }

// Activate starts the source and its follower the first time, and shows the rows.
func (v *Releases) Activate() {
	v.life.Start(v.nav, func(ctx context.Context) {
		v.rows.Start(ctx)
		v.life.Go(v.follow)
		v.life.Tick(v, v.refresh)
	})
	v.refresh()
}

// follow refreshes the table after each change of the source, spaced as every live screen's, until ctx ends.
func (v *Releases) follow(ctx context.Context) {
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.rows.Notify():
		}
		if !v.nav.SpaceRedraw(ctx, &last) {
			return
		}
		v.life.Update(v.refresh)
	}
}

// Close stops the source.
func (v *Releases) Close() {
	v.life.Stop()
	v.rows.Stop()
}

// Bindings: the selected release's revisions, values, manifest, notes and YAML, its uninstall; the filter;
// help, quit.
func (v *Releases) Bindings() []keymap.Binding {
	out := []keymap.Binding{
		v.nav.HelpBinding(),
		keys.Revisions.Bind(v.openRevisions),
		keys.History.Bind(v.openRevisions),
		keys.Objects.Bind(v.openObjects),
		keys.Describe.Bind(func() { v.openText(described) }),
		keys.Values.Bind(func() { v.openText(values) }),
		keys.Manifest.Bind(func() { v.openText(manifest) }),
		keys.Notes.Bind(func() { v.openText(notes) }),
		keys.YAML.Bind(func() { v.openText(asYAML) }),
		keys.Filter.Bind(func() { v.nav.Ask("/", v.filter.String(), v.setFilter) }),
	}
	if v.guard != nil {
		out = append(out, keys.Uninstall.Bind(v.uninstallSelected).WithDenied(func() bool { return v.deniedOf("delete") }),
			keys.Upgrade.Bind(v.upgradeSelected).WithDenied(func() bool { return v.deniedOf("create") }))
	}
	return append(out, v.nav.QuitBinding())
}

// uninstallSelected asks, then uninstalls the selected release.
func (v *Releases) uninstallSelected() {
	v.withSelected(func(p place, latest helm.Revision) {
		uninstall(v.nav, &v.life, p.c, v.guardOf(p, latest, "delete"), latest)
	})
}

// upgradeSelected checks, then edits the selected release's values and dry-runs its upgrade.
func (v *Releases) upgradeSelected() {
	v.withSelected(func(p place, latest helm.Revision) {
		v.guardOf(p, latest, "create").Permitted("upgrade release "+latest.Key(), func() {
			upgrading{nav: v.nav, life: &v.life, c: p.c, edit: v.session.Edit, latest: latest}.start()
		})
	})
}

// openRevisions pushes the selected release's revisions.
func (v *Releases) openRevisions() {
	v.withSelected(func(p place, _ helm.Revision) {
		var guard Guard
		if v.guard != nil {
			guard = func(rev helm.Revision, apiVerb string) ui.WriteGuard { return v.guardOf(p, rev, apiVerb) }
		}
		v.nav.Push(NewRevisions(v.nav, p.src, p.key, guard))
	})
}

// openObjects opens the live table of the selected release's objects (in the view's cluster only: the
// object keys act there).
func (v *Releases) openObjects() {
	v.withSelected(func(p place, latest helm.Revision) {
		if !p.inView(v.nav) {
			v.nav.Errorf("the objects of release %s: open them in its context (:ctx %s, then :helm)", p.describe(), p.context)
			return
		}
		openObjects(v.session, &v.life, p.c, latest)
	})
}

// selected is the place and the latest revision of the selected release.
func (v *Releases) selected() (place, helm.Revision, bool) {
	r, ghost := v.content.RowAt(v.selectedRow())
	if r == nil || ghost {
		return place{}, helm.Revision{}, false
	}
	p, ok := locate(v.rows, v.nav.Cluster(), r)
	if !ok {
		return place{}, helm.Revision{}, false
	}
	revs := p.src.Revisions(p.key)
	if len(revs) == 0 {
		return place{}, helm.Revision{}, false
	}
	return p, revs[len(revs)-1], true
}

// deniedOf tells whether the server refuses apiVerb on the selected release (for the keys' marks).
func (v *Releases) deniedOf(apiVerb string) bool {
	p, latest, ok := v.selected()
	return ok && v.guardOf(p, latest, apiVerb).Denied()
}

// guardOf is the guard of a write of apiVerb to rev's object, a revision of the release at p, one per object
// and verb for the view's life (so that the access answers are asked once); a release of another cluster
// than the view's is refused (elsewhere).
func (v *Releases) guardOf(p place, rev helm.Revision, apiVerb string) ui.WriteGuard {
	k := p.context + " " + rev.Version() + " " + apiVerb
	if g, ok := v.guards[k]; ok {
		return g
	}
	if v.guards == nil {
		v.guards = map[string]ui.WriteGuard{}
	}
	g := elsewhere(v.nav, p.context)
	if p.inView(v.nav) {
		g = v.guard(rev, apiVerb)
	}
	v.guards[k] = g
	return g
}

// openText pushes the text of the selected release's latest revision (followed as new ones come).
func (v *Releases) openText(what textKind) {
	v.withSelected(func(p place, _ helm.Revision) { v.nav.Push(NewText(v.nav, p.src, p.key, 0, what)) })
}

// withSelected runs fn on the selected release, or says why there is none.
func (v *Releases) withSelected(fn func(p place, latest helm.Revision)) {
	r, ghost := v.content.RowAt(v.selectedRow())
	if r == nil || ghost {
		v.nav.Errorf("no release selected")
		return
	}
	p, latest, ok := v.selected()
	if !ok {
		v.nav.Errorf("release %s: its cluster is not connected, or it has no revision left", r.Key)
		return
	}
	fn(p, latest)
}

// setFilter keeps only the rows matching text (a regular expression; "" for all).
func (v *Releases) setFilter(text string) {
	f, err := watch.ParseFilter(text)
	if err != nil {
		v.nav.Errorf("filter: %s", err.Error())
		return
	}
	v.filter = f
	v.refresh()
}

// Escape clears the filter.
func (v *Releases) Escape() bool {
	if v.filter.Empty() {
		return false
	}
	v.setFilter("")
	return true
}

// Status says how the listing stands: the state's error or note, else how many releases.
func (v *Releases) Status() string {
	st := v.rows.State()
	var parts []string
	if st.Err != nil || st.Message != "" {
		parts = append(parts, "[red]"+tview.Escape(firstNonEmpty(st.Message, fmt.Sprint(st.Err)))+"[-]")
	}
	if st.Note != "" {
		parts = append(parts, "[orange]"+tview.Escape(st.Note)+"[-]")
	}
	if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%d release(s) in %s; chart and app version read from each latest revision once",
			len(v.content.Rows()), v.title))
	}
	if n := reading(v.rows); n > 0 {
		parts = append(parts, fmt.Sprintf("reading the charts: %d left", n))
	}
	return strings.Join(parts, " · ") + verbs.NotPermitted(v.Bindings())
}

// refresh shows the source's rows as they are now, keeping the selection on its release.
func (v *Releases) refresh() {
	key := ""
	if r, _ := v.content.RowAt(v.selectedRow()); r != nil {
		key = r.Key
	}
	st := v.rows.State()
	v.content.SetColumns(v.rows.Columns(), false)
	snap := v.rows.Snapshot(watch.Query{SortColumn: -1, Filter: v.filter, Now: v.nav.Clock().Now()})
	v.content.Update(snap, v.rows.Changes(), v.filter.Match)
	switch {
	case st.Phase == watch.Listing:
		v.content.SetPlaceholder("listing the releases …", v.nav.Theme().Dim)
	case snap.Total == 0:
		v.content.SetPlaceholder("no Helm releases in "+v.title, v.nav.Theme().Dim)
	default:
		v.content.SetPlaceholder("no release matches the filter", v.nav.Theme().Dim)
	}
	theme := v.nav.Theme()
	count := fmt.Sprint(snap.Total)
	if len(snap.Rows) != snap.Total {
		count = fmt.Sprintf("%d/%d", len(snap.Rows), snap.Total)
	}
	title := fmt.Sprintf(" %shelm%s(%s)[%s] ", theme.Title, theme.Counter, tview.Escape(v.title), count)
	if !v.filter.Empty() {
		title += fmt.Sprintf("%s</%s> ", theme.Filter, tview.Escape(v.filter.String()))
	}
	v.table.SetTitle(title)
	if i := v.content.IndexOf(key); i > 0 {
		v.table.Select(i, 0)
	} else if len(v.content.Rows()) > 0 {
		v.table.Select(min(max(v.selectedRow(), 1), len(v.content.Rows())), 0)
	}
	v.nav.UpdateStatus(v)
}

// selectedRow is the table row selected (0: none, the header).
func (v *Releases) selectedRow() int {
	row, _ := v.table.GetSelection()
	return row
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
