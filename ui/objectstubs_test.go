package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/verbs"
	"kscope/watch"
)

// stubObjectScreen is the tests' YAML or describe view (the real ones, package ui/objectview, import ui):
// a line naming the object, its kind, resourceVersion and whether it was deleted, then its YAML in the
// theme's colours (describe: its description, read once), following its watch as the real views do (the
// YAML one recording its versions). It binds the real views' keys in their order: its own do nothing but
// the openers ui hands it (ObjectView: the YAML view's history and blame, the describe view's YAML), then
// the object keys (the describe view's without describe).
type stubObjectScreen struct {
	BaseScreen
	nav      Navigator
	describe bool
	res      discovery.Resource
	row      *watch.Row
	obj      ObjectView
	text     *tview.TextView
	cancel   context.CancelFunc

	shown     *unstructured.Unstructured
	deleted   bool
	described string
}

// stubYAML is the tests' Roles.YAML.
func stubYAML(nav Navigator, res discovery.Resource, row *watch.Row, obj ObjectView) Screen {
	return &stubObjectScreen{nav: nav, res: res, row: row, obj: obj, text: tview.NewTextView().SetDynamicColors(true)}
}

// stubDescribe is the tests' Roles.Describe.
func stubDescribe(nav Navigator, res discovery.Resource, row *watch.Row, obj ObjectView) Screen {
	return &stubObjectScreen{nav: nav, describe: true, res: res, row: row, obj: obj, text: tview.NewTextView().SetDynamicColors(true)}
}

func (s *stubObjectScreen) Crumb() string {
	if s.describe {
		return "describe " + s.row.Name
	}
	return s.row.Name
}
func (s *stubObjectScreen) Primitive() tview.Primitive { return s.text }

func (s *stubObjectScreen) Bindings() []keymap.Binding {
	none := func() {}
	keys := []keymap.Binding{s.nav.HelpBinding()}
	if s.describe {
		keys = append(keys, keymap.Keys.Describe.Search.Bind(none), keymap.Keys.Describe.NextMatch.Bind(none))
		if s.obj.YAML != nil {
			keys = append(keys, keymap.Keys.Describe.YAML.Bind(s.obj.YAML))
		}
		keys = append(keys, keymap.Keys.Describe.Copy.Bind(none))
	} else {
		keys = append(keys, keymap.Keys.YAML.Search.Bind(none), keymap.Keys.YAML.NextMatch.Bind(none), keymap.Keys.YAML.Copy.Bind(none),
			keymap.Keys.YAML.ManagedFields.Bind(none), keymap.Keys.YAML.Reveal.Bind(none))
		if s.obj.History != nil {
			keys = append(keys, keymap.Keys.YAML.History.Bind(s.obj.History))
		}
		if blame := s.obj.Blame; blame != nil {
			keys = append(keys, keymap.Keys.YAML.Blame.Bind(func() { blame(s.shown) }))
		}
	}
	keys = append(keys, keymap.Keys.Health.Panel.Bind(none))
	for _, b := range s.obj.Keys(s.subject) {
		if !s.describe || b.Name != keymap.Keys.Object.Describe.Name {
			keys = append(keys, b)
		}
	}
	return append(keys, s.nav.QuitBinding())
}

func (s *stubObjectScreen) subject() (types.UID, bool) {
	if s.shown == nil {
		return "", s.deleted
	}
	return s.shown.GetUID(), s.deleted
}

func (s *stubObjectScreen) Status() string { return verbs.NotPermitted(s.Bindings()) }

func (s *stubObjectScreen) Activate() {
	if s.cancel == nil {
		ctx, cancel := context.WithCancel(s.nav.Context())
		s.cancel = cancel
		events := s.nav.Cluster().WatchObject(ctx, s.res.GVR(), s.row.Namespace, s.row.Name)
		if s.describe {
			s.nav.Go(func() {
				text, err := s.nav.Cluster().Describe(ctx, s.res, s.row.Namespace, s.row.Name)
				if err != nil {
					text = err.Error()
				}
				s.nav.Update(func() { s.described = text; s.render() })
			})
		}
		s.nav.Go(func() {
			for ev := range events {
				if !s.describe {
					s.obj.Record(ev)
				}
				s.nav.Update(func() {
					if ctx.Err() == nil {
						s.apply(ev)
					}
				})
			}
		})
	}
	s.render()
}

func (s *stubObjectScreen) Close() {
	if s.cancel != nil {
		s.cancel()
	}
}

func (s *stubObjectScreen) apply(ev watch.ObjectEvent) {
	switch {
	case ev.Deleted:
		s.deleted = true
	case ev.Object != nil:
		s.shown, s.deleted = ev.Object, false
	}
	s.render()
}

// render writes "yaml stub: deployments shop/web: Deployment at 5" (describe: "describe stub: …"), then
// "deleted" once it is, then the YAML (the description).
func (s *stubObjectScreen) render() {
	what := "yaml"
	if s.describe {
		what = "describe"
	}
	line := fmt.Sprintf("%s stub: %s %s", what, s.res.Name, s.row.Key)
	if s.shown != nil {
		line += fmt.Sprintf(": %s at %s", s.shown.GetKind(), s.shown.GetResourceVersion())
	}
	if s.deleted {
		line += " deleted"
	}
	text := tview.Escape(line) + "\n"
	if s.describe {
		text += tview.Escape(s.described)
	} else if s.shown != nil {
		yaml, err := RenderYAML(s.shown, false, false)
		if err != nil {
			yaml = err.Error()
		}
		for _, l := range strings.SplitAfter(yaml, "\n") {
			text += s.nav.Theme().YAMLLine(l)
		}
	}
	s.text.SetText(text)
	s.nav.UpdateStatus(s)
}
