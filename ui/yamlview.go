package ui

import (
	"context"
	"fmt"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/discovery"
	"kscope/watch"
)

// YAMLView shows one object as YAML, live: managedFields hidden and Secret values masked unless toggled, a
// `/` search highlighting every match with `n` moving to the next. A goroutine forwards the object's watch
// events to the UI goroutine; everything else runs on the UI goroutine.
type YAMLView struct {
	BaseScreen
	app  *App
	res  discovery.Resource
	row  *watch.Row
	text *searchText
	// access keeps the server's answers about the object's verbs.
	access *accessCache
	// health is the header with the object's health and conditions.
	health *healthPanel

	obj         *unstructured.Unstructured
	deleted     bool
	err         error
	showManaged bool
	reveal      bool
	cancel      context.CancelFunc
	flash       lineFlash // the lines the last update changed (yamlflash.go)
}

// NewYAMLView returns the YAML view of row, an object of res.
func NewYAMLView(a *App, res discovery.Resource, row *watch.Row) *YAMLView {
	v := &YAMLView{app: a, res: res, row: row, access: newAccessCache(a)}
	v.text = newSearchText()
	v.health = newHealthPanel(a, v.text.view)
	return v
}

func (v *YAMLView) Crumb() string              { return v.row.Name }
func (v *YAMLView) Primitive() tview.Primitive { return v.health.primitive() }

// Bindings are the YAML view's keys: search, toggles and the object's actions.
func (v *YAMLView) Bindings() []Binding {
	keys := []Binding{
		v.app.HelpBinding(),
		Keys.YAML.Search.Bind(v.openSearchBar),
		Keys.YAML.NextMatch.Bind(v.nextMatch),
		Keys.YAML.Copy.Bind(v.copyYAML),
		Keys.YAML.ManagedFields.Bind(v.toggleManagedFields),
		Keys.YAML.Reveal.Bind(v.toggleReveal),
	}
	if v.app.opts.Screens.History != nil { // screens of their own package (TableScreens)
		keys = append(keys, Keys.YAML.History.Bind(func() { v.app.openHistory(v.res, v.row) }))
	}
	if v.app.opts.Screens.Blame != nil {
		keys = append(keys, Keys.YAML.Blame.Bind(func() { v.app.openBlame(v.row, v.obj) }))
	}
	keys = append(keys, v.health.binding())
	scope := func() (discovery.Resource, string) { return v.res, v.row.Namespace }
	keys = append(keys, v.app.objectBindings(v.subject, scope, v.access)...)
	return append(keys, v.app.QuitBinding())
}

// subject is the object the view shows, for the object actions: its UID the one shown (so a write never
// reaches another object of the same name); none once it is deleted.
func (v *YAMLView) subject() (discovery.Resource, *watch.Row, bool) {
	if v.deleted {
		return goneSubject(v.app, v.res, v.row)
	}
	if v.obj == nil {
		return v.res, v.row, true
	}
	return v.res, shownRow(v.row, v.obj.GetUID()), true
}

// Escape clears the search.
func (v *YAMLView) Escape() bool { return v.text.clear(v.render) }

func (v *YAMLView) openSearchBar() { v.app.bar.Open("/", "", v.setSearch, nil) }

func (v *YAMLView) Activate() {
	if v.cancel == nil {
		ctx, cancel := context.WithCancel(v.app.ctx)
		v.cancel = cancel
		v.flash.ctx = ctx
		events := v.app.cluster.WatchObject(ctx, v.res.GVR(), v.row.Namespace, v.row.Name)
		v.app.goSafe(func() {
			for ev := range events {
				v.app.versions.Record(v.res.GVR(), ev, v.app.opts.Clock.Now())
				v.app.tv.QueueUpdateDraw(func() {
					if ctx.Err() == nil {
						v.apply(ev)
					}
				})
			}
		})
	}
	v.render()
}

func (v *YAMLView) Close() {
	if v.cancel != nil {
		v.cancel()
	}
}

// apply takes one event of the object's watch.
func (v *YAMLView) apply(ev watch.ObjectEvent) {
	switch {
	case ev.Err != nil:
		v.err = ev.Err
	case ev.Deleted:
		v.deleted, v.err = true, nil
		if ev.Object != nil {
			v.obj = ev.Object
		}
	case ev.Object != nil:
		v.noteChange(ev.Object)
		v.obj, v.deleted, v.err = ev.Object, false, nil
	}
	v.health.set(v.obj, v.deleted)
	v.render()
}

// render rewrites the text, keeping the scroll position.
func (v *YAMLView) render() {
	if v.obj != nil {
		text, err := RenderYAML(v.obj, v.showManaged, v.reveal)
		if err != nil {
			v.app.errorf("%s", err.Error())
			return
		}
		v.showYAML(text)
	}
	title := fmt.Sprintf(" %s%s%s %s ", v.app.theme.Title, tview.Escape(v.res.Name), v.app.theme.Counter, tview.Escape(v.row.Key))
	v.text.view.SetTitle(title + titleState(v.deleted, v.err) + v.text.title())
	v.app.updateStatus(v)
}

// Status says whether the object is live, and the state of the toggles.
func (v *YAMLView) Status() string {
	managed, secret := "managedFields hidden (m)", ""
	if v.showManaged {
		managed = "managedFields shown (m)"
	}
	if v.obj != nil && v.obj.GetKind() == "Secret" {
		secret = "  data masked (x)"
		if v.reveal {
			secret = "  [red]data revealed (x)[-]"
		}
	}
	state := "[green]live[-]"
	if v.deleted {
		state = "[red]deleted[-]"
	}
	return state + "  " + managed + secret + notPermitted(v.Bindings())
}

// setSearch highlights text (case-insensitive) and scrolls to its first match.
func (v *YAMLView) setSearch(text string) { v.text.searchFor(v.app, text, v.render) }

func (v *YAMLView) nextMatch() { v.text.next(v.render) }

func (v *YAMLView) toggleManagedFields() {
	v.showManaged = !v.showManaged
	v.render()
}

func (v *YAMLView) toggleReveal() {
	v.reveal = !v.reveal
	v.render()
}

// copyYAML copies the YAML as the view shows it (managedFields and Secret data as toggled).
func (v *YAMLView) copyYAML() {
	if v.obj == nil {
		v.app.errorf("nothing to copy yet")
		return
	}
	text, err := RenderYAML(v.obj, v.showManaged, v.reveal)
	if err != nil {
		v.app.errorf("%s", err.Error())
		return
	}
	v.app.CopyToClipboard("the YAML of "+v.row.Name, text)
}
