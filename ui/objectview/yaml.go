package objectview

import (
	"context"
	"fmt"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/ui/searchtext"
	"kscope/ui/verbs"
	"kscope/watch"
)

// YAMLView shows one object as YAML, live: managedFields hidden and Secret values masked unless toggled, a
// `/` search highlighting every match with `n` moving to the next. A goroutine forwards the object's watch
// events to the UI goroutine; everything else runs on the UI goroutine.
type YAMLView struct {
	ui.BaseScreen
	nav  ui.Navigator
	res  discovery.Resource
	row  *watch.Row
	obj  ui.ObjectView
	text *searchtext.Text
	// health is the header with the object's health and conditions.
	health *healthPanel

	shown       *unstructured.Unstructured
	deleted     bool
	err         error
	showManaged bool
	reveal      bool
	life        screenlife.Life // the watch
	flash       lineFlash       // the lines the last update changed (flash.go)
}

// NewYAMLView returns the YAML view of row, an object of res; obj is what ui hands it (the object keys, the
// openers of history and blame, the recording of versions). It plays ui.Roles.YAML (Spec).
func NewYAMLView(nav ui.Navigator, res discovery.Resource, row *watch.Row, obj ui.ObjectView) ui.Screen {
	v := &YAMLView{nav: nav, res: res, row: row, obj: obj}
	v.text = searchtext.New()
	v.health = newHealthPanel(nav, v.text.View())
	return v
}

// Crumb is the object's name.
func (v *YAMLView) Crumb() string { return v.row.Name }

// Primitive is the health panel over the text.
func (v *YAMLView) Primitive() tview.Primitive { return v.health.primitive() }

// Bindings are the YAML view's keys: search, toggles and the object's actions.
func (v *YAMLView) Bindings() []keymap.Binding {
	keys := []keymap.Binding{
		v.nav.HelpBinding(),
		keymap.Keys.YAML.Search.Bind(v.openSearchBar),
		keymap.Keys.YAML.NextMatch.Bind(v.nextMatch),
		keymap.Keys.YAML.Copy.Bind(v.copyYAML),
		keymap.Keys.YAML.ManagedFields.Bind(v.toggleManagedFields),
		keymap.Keys.YAML.Reveal.Bind(v.toggleReveal),
	}
	if open := v.obj.History; open != nil { // a history screen is registered
		keys = append(keys, keymap.Keys.YAML.History.Bind(open))
	}
	if open := v.obj.Blame; open != nil {
		keys = append(keys, keymap.Keys.YAML.Blame.Bind(func() { open(v.shown) }))
	}
	keys = append(keys, v.health.binding())
	keys = append(keys, v.obj.Keys(v.subject)...)
	return append(keys, v.nav.QuitBinding())
}

// subject is the object the view shows, for the object keys: the UID shown ("" before the first) and
// whether it was deleted.
func (v *YAMLView) subject() (types.UID, bool) {
	if v.shown == nil {
		return "", v.deleted
	}
	return v.shown.GetUID(), v.deleted
}

// Escape clears the search.
func (v *YAMLView) Escape() bool { return v.text.Clear(v.render) }

func (v *YAMLView) openSearchBar() { v.nav.Ask("/", "", v.setSearch) }

// Activate starts the object's watch, the first time.
func (v *YAMLView) Activate() {
	v.life.Start(v.nav, func(ctx context.Context) {
		v.flash.ctx = ctx
		events := v.nav.Cluster().WatchObject(ctx, v.res.GVR(), v.row.Namespace, v.row.Name)
		v.life.Go(func(context.Context) {
			for ev := range events {
				v.obj.Record(ev)
				v.life.Update(func() { v.apply(ev) })
			}
		})
	})
	v.render()
}

// Close stops the watch.
func (v *YAMLView) Close() { v.life.Stop() }

// apply takes one event of the object's watch.
func (v *YAMLView) apply(ev watch.ObjectEvent) {
	switch {
	case ev.Err != nil:
		v.err = ev.Err
	case ev.Deleted:
		v.deleted, v.err = true, nil
		if ev.Object != nil {
			v.shown = ev.Object
		}
	case ev.Object != nil:
		v.noteChange(ev.Object)
		v.shown, v.deleted, v.err = ev.Object, false, nil
	}
	v.health.set(v.shown, v.deleted)
	v.render()
}

// render rewrites the text, keeping the scroll position.
func (v *YAMLView) render() {
	if v.shown != nil {
		text, err := ui.RenderYAML(v.shown, v.showManaged, v.reveal)
		if err != nil {
			v.nav.Errorf("%s", err.Error())
			return
		}
		v.showYAML(text)
	}
	theme := v.nav.Theme()
	title := fmt.Sprintf(" %s%s%s %s ", theme.Title, tview.Escape(v.res.Name), theme.Counter, tview.Escape(v.row.Key))
	v.text.View().SetTitle(title + titleState(v.deleted, v.err) + v.text.Title())
	v.nav.UpdateStatus(v)
}

// Status says whether the object is live, and the state of the toggles.
func (v *YAMLView) Status() string {
	managed, secret := "managedFields hidden (m)", ""
	if v.showManaged {
		managed = "managedFields shown (m)"
	}
	if v.shown != nil && v.shown.GetKind() == "Secret" {
		secret = "  data masked (x)"
		if v.reveal {
			secret = "  [red]data revealed (x)[-]"
		}
	}
	state := "[green]live[-]"
	if v.deleted {
		state = "[red]deleted[-]"
	}
	return state + "  " + managed + secret + verbs.NotPermitted(v.Bindings())
}

// setSearch highlights text (case-insensitive) and scrolls to its first match.
func (v *YAMLView) setSearch(text string) { v.text.SearchFor(v.nav, text, v.render) }

func (v *YAMLView) nextMatch() { v.text.Next(v.render) }

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
	if v.shown == nil {
		v.nav.Errorf("nothing to copy yet")
		return
	}
	text, err := ui.RenderYAML(v.shown, v.showManaged, v.reveal)
	if err != nil {
		v.nav.Errorf("%s", err.Error())
		return
	}
	v.nav.CopyToClipboard("the YAML of "+v.row.Name, text)
}
