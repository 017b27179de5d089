package helm

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/rivo/tview"

	"kscope/helm"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/ui/screenlife"
	"kscope/ui/verbs"
	"kscope/watch"
)

// Revisions lists the revisions of one release (helm history), newest first: the labels' status and time at
// once, each revision's chart, app version and description once decoded. It reads the release's revisions
// from the releases table's source again every tick, and decodes each revision once per version. UI
// goroutine only.
type Revisions struct {
	ui.BaseScreen
	nav   ui.Navigator
	src   *helm.Source
	key   string
	table *tview.Table
	revs  []helm.Revision // newest first, as shown
	// decoded are the summaries (or errors) by revision (Revision.Version); decoding tells a decode runs.
	decoded  map[string]decodedRevision
	decoding bool
	guard    Guard
	guards   map[string]ui.WriteGuard // by the latest revision's Version
	life     screenlife.Life
}

// decodedRevision is one revision's summary, or why it could not be decoded.
type decodedRevision struct {
	sum helm.Summary
	err error
}

// NewRevisions returns the revisions of the release key ("namespace/name") that src lists; guard checks the
// rollback (nil: none is offered).
func NewRevisions(nav ui.Navigator, src *helm.Source, key string, guard Guard) *Revisions {
	v := &Revisions{nav: nav, src: src, key: key, guard: guard, decoded: map[string]decodedRevision{},
		guards: map[string]ui.WriteGuard{},
		table:  tview.NewTable().SetFixed(1, 0).SetSelectable(true, false)}
	v.table.SetBorder(true)
	v.table.SetSelectedStyle(nav.Theme().Cursor)
	return v
}

func (v *Revisions) Crumb() string              { return "revisions" }
func (v *Revisions) Primitive() tview.Primitive { return v.table }
func (v *Revisions) Close()                     { v.life.Stop() }

// Activate reads the revisions now and every tick while on top.
func (v *Revisions) Activate() {
	v.life.Start(v.nav, func(context.Context) { v.life.Tick(v, v.refresh) })
	v.refresh()
}

// Bindings: the selected revision's diff to the latest, its values, manifest, notes and YAML; help, quit.
func (v *Revisions) Bindings() []keymap.Binding {
	open := func(what textKind) func() {
		return func() {
			if r, ok := v.selected(); ok {
				v.nav.Push(NewText(v.nav, v.src, v.key, r.Number, what))
			}
		}
	}
	out := []keymap.Binding{
		v.nav.HelpBinding(),
		keys.Diff.Bind(v.diffSelected),
		keys.Describe.Bind(open(described)),
		keys.Values.Bind(open(values)),
		keys.Manifest.Bind(open(manifest)),
		keys.Notes.Bind(open(notes)),
		keys.YAML.Bind(open(asYAML)),
	}
	if v.guard != nil && len(v.revs) > 0 {
		out = append(out, keys.Rollback.Bind(v.rollbackSelected).WithDenied(func() bool {
			return len(v.revs) > 0 && v.guardOf(v.revs[0]).Denied()
		}))
	}
	return append(out, v.nav.QuitBinding())
}

// rollbackSelected asks, then rolls the release back to the selected revision.
func (v *Revisions) rollbackSelected() {
	r, ok := v.selected()
	if !ok {
		return
	}
	latest := v.revs[0]
	if r.Number == latest.Number {
		v.nav.Errorf("revision %d is the latest: select an older one to roll back to", r.Number)
		return
	}
	rollback(v.nav, &v.life, v.nav.Cluster(), v.guardOf(latest), latest, r, v.chart(r), v.chart(latest))
}

// guardOf is the guard of a rollback from latest: the new revision's object is created beside it.
func (v *Revisions) guardOf(latest helm.Revision) ui.WriteGuard {
	k := latest.Version()
	if g, ok := v.guards[k]; ok {
		return g
	}
	g := v.guard(latest, "create")
	v.guards[k] = g
	return g
}

// chart is the chart of r as decoded ("" until it is).
func (v *Revisions) chart(r helm.Revision) string {
	if d, ok := v.decoded[r.Version()]; ok && d.err == nil {
		return d.sum.Chart
	}
	return ""
}

// Status counts the revisions and names the keys the server refuses.
func (v *Revisions) Status() string {
	return fmt.Sprintf("%d revision(s) of release %s", len(v.revs), tview.Escape(v.key)) + verbs.NotPermitted(v.Bindings())
}

// diffSelected pushes the diff from the selected revision to the latest.
func (v *Revisions) diffSelected() {
	r, ok := v.selected()
	if !ok {
		return
	}
	latest := v.revs[0]
	if r.Number == latest.Number {
		v.nav.Errorf("revision %d is the latest: select an older one to compare with it", r.Number)
		return
	}
	v.nav.Push(NewDiff(v.nav, v.src.Getter(), v.key, r, latest))
}

// selected returns the selected revision, or says there is none.
func (v *Revisions) selected() (helm.Revision, bool) {
	row, _ := v.table.GetSelection()
	if row < 1 || row > len(v.revs) {
		v.nav.Errorf("no revision selected")
		return helm.Revision{}, false
	}
	return v.revs[row-1], true
}

// refresh reads the revisions again, shows them and decodes those not decoded yet.
func (v *Revisions) refresh() {
	revs := v.src.Revisions(v.key)
	v.revs = v.revs[:0]
	for i := len(revs) - 1; i >= 0; i-- {
		v.revs = append(v.revs, revs[i])
	}
	v.render()
	v.decodeMissing()
}

// decodeMissing decodes, off the UI goroutine and one at a time, the revisions shown without a summary.
func (v *Revisions) decodeMissing() {
	if v.decoding {
		return
	}
	var todo []helm.Revision
	for _, r := range v.revs {
		if _, ok := v.decoded[r.Version()]; !ok {
			todo = append(todo, r)
		}
	}
	if len(todo) == 0 {
		return
	}
	v.decoding = true
	get := v.src.Getter()
	v.life.Go(func(ctx context.Context) {
		for _, r := range todo {
			rctx, cancel := context.WithTimeout(ctx, ui.RequestTimeout)
			rel, err := helm.Decode(rctx, get, r)
			cancel()
			d := decodedRevision{err: err}
			if err == nil {
				d.sum = helm.Summarize(rel)
			}
			v.life.Update(func() {
				v.decoded[r.Version()] = d
				v.render()
			})
		}
		v.life.Update(func() { v.decoding = false })
	})
}

// render fills the table, keeping the selection's row.
func (v *Revisions) render() {
	theme := v.nav.Theme()
	row, _ := v.table.GetSelection()
	v.table.Clear()
	v.table.SetTitle(fmt.Sprintf(" %srevisions%s(%s)[%d] ", theme.Title, theme.Counter, tview.Escape(v.key), len(v.revs)))
	for c, title := range []string{"REVISION", "STATUS", "CHART", "APP VERSION", "DESCRIPTION", "UPDATED"} {
		v.table.SetCell(0, c, tview.NewTableCell(title+livetable.ColumnGap).SetStyle(theme.Header).SetSelectable(false))
	}
	now := v.nav.Clock().Now()
	for i, r := range v.revs {
		d, ok := v.decoded[r.Version()]
		updated := r.Updated
		chart, app, desc := "", "", ""
		switch {
		case ok && d.err != nil:
			chart, desc = "<error>", d.err.Error()
		case ok:
			chart, app, desc = d.sum.Chart, d.sum.AppVersion, d.sum.Description
			if !d.sum.Deployed.IsZero() {
				updated = d.sum.Deployed
			}
		}
		for c, text := range []string{strconv.Itoa(r.Number), r.Status, chart, app, desc, age(now, updated)} {
			v.table.SetCell(i+1, c, tview.NewTableCell(tview.Escape(text)+livetable.ColumnGap).SetTextColor(theme.RowFg))
		}
	}
	if len(v.revs) == 0 {
		v.table.SetCell(1, 0, tview.NewTableCell("no revisions of "+tview.Escape(v.key)).SetSelectable(false).SetTextColor(theme.Dim))
		return
	}
	v.table.Select(min(max(row, 1), len(v.revs)), 0)
}

// age is how long ago t was, as the tables show ages.
func age(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return watch.FormatAge(now.Sub(t))
}
