package helm

import (
	"context"
	"fmt"

	"github.com/rivo/tview"

	"kscope/helm"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/ui/searchtext"
)

// textKind is what a Text shows of a revision.
type textKind int

const (
	values textKind = iota
	manifest
	notes
	asYAML
	described
)

// name is the kind's word in titles and on the prompt line.
func (k textKind) name() string {
	return [...]string{"values", "manifest", "notes", "release", "describe"}[k]
}

// Text is one text of a revision (its values, manifest, notes, or the release as YAML), searchable and
// copyable. It follows the revision: read again when its object changes (a status Helm rewrites), and, opened
// on a release (number 0), when a new revision becomes the latest. UI goroutine only.
type Text struct {
	ui.BaseScreen
	nav    ui.Navigator
	src    *helm.Source
	key    string
	number int // 0: the release's latest revision
	what   textKind
	all    bool // values: every value computed, not only the user's
	text   *searchtext.Text

	shown   string // the Version of the revision shown ("" before)
	rev     helm.Revision
	rel     string // the text shown
	err     error
	loading bool
	life    screenlife.Life
}

// NewText returns the text what of revision number (0: the latest) of the release key that src lists.
func NewText(nav ui.Navigator, src *helm.Source, key string, number int, what textKind) *Text {
	return &Text{nav: nav, src: src, key: key, number: number, what: what, text: searchtext.New()}
}

func (v *Text) Crumb() string              { return v.what.name() }
func (v *Text) Primitive() tview.Primitive { return v.text.View() }
func (v *Text) Close()                     { v.life.Stop() }

// Activate reads the revision the first time, and again every tick while on top when it changed.
func (v *Text) Activate() {
	v.life.Start(v.nav, func(context.Context) { v.life.Tick(v, v.follow) })
	v.follow()
	v.render()
}

// Bindings: search, next match, copy; in the values, all values; help, quit.
func (v *Text) Bindings() []keymap.Binding {
	out := []keymap.Binding{
		v.nav.HelpBinding(),
		keys.Search.Bind(func() { v.nav.Ask("/", "", func(text string) { v.text.SearchFor(v.nav, text, v.render) }) }),
		keys.NextMatch.Bind(func() { v.text.Next(v.render) }),
		keys.Copy.Bind(func() {
			v.nav.CopyToClipboard(fmt.Sprintf("the %s of %s", v.what.name(), revisionTitle(v.key, v.rev.Number)), v.rel)
		}),
	}
	if v.what == values {
		out = append(out, keys.AllValues.Bind(func() {
			v.all = !v.all
			v.shown = ""
			v.follow()
		}))
	}
	return append(out, v.nav.QuitBinding())
}

// Escape ends the search.
func (v *Text) Escape() bool { return v.text.Clear(v.render) }

// Status says which revision is shown and how it was read.
func (v *Text) Status() string {
	if v.err != nil {
		return "[red]" + tview.Escape(v.err.Error()) + "[-]"
	}
	if v.shown == "" {
		return "reading the revision …"
	}
	s := fmt.Sprintf("revision %d (%s) of %s, decoded by Helm's storage driver", v.rev.Number, v.rev.Status, tview.Escape(v.key))
	if v.number == 0 {
		s += "; follows the latest revision"
	}
	return s
}

// follow decodes the revision shown again when its object changed (or, following the latest, when another
// became the latest), off the UI goroutine.
func (v *Text) follow() {
	rev, ok := v.revision()
	if !ok {
		if v.shown == "" && !v.loading {
			v.err = fmt.Errorf("%s: no such revision (uninstalled?)", revisionTitle(v.key, v.number))
			v.render()
		}
		return
	}
	if v.loading || rev.Version() == v.shown {
		return
	}
	v.loading = true
	get, what, all := v.src.Getter(), v.what, v.all
	v.life.Go(func(ctx context.Context) {
		rctx, cancel := context.WithTimeout(ctx, ui.RequestTimeout)
		text, err := read(rctx, get, rev, what, all)
		cancel()
		v.life.Update(func() {
			v.loading = false
			v.shown, v.rev, v.rel, v.err = rev.Version(), rev, text, err
			v.render()
			v.nav.UpdateStatus(v)
		})
	})
}

// revision finds the revision to show among the release's: number, or the latest.
func (v *Text) revision() (helm.Revision, bool) {
	revs := v.src.Revisions(v.key)
	if len(revs) == 0 {
		return helm.Revision{}, false
	}
	if v.number == 0 {
		return revs[len(revs)-1], true
	}
	for _, r := range revs {
		if r.Number == v.number {
			return r, true
		}
	}
	return helm.Revision{}, false
}

// read decodes rev through get and returns its text what.
func read(ctx context.Context, get helm.Getter, rev helm.Revision, what textKind, all bool) (string, error) {
	rel, err := helm.Decode(ctx, get, rev)
	if err != nil {
		return "", err
	}
	switch what {
	case values:
		return helm.Values(rel, all)
	case manifest:
		return rel.Manifest, nil
	case notes:
		if rel.Info == nil {
			return "", nil
		}
		return rel.Info.Notes, nil
	case described:
		return helm.Describe(rel), nil
	default:
		return helm.AsYAML(rel)
	}
}

// render shows the text under its title.
func (v *Text) render() {
	theme := v.nav.Theme()
	what := v.what.name()
	if v.what == values && v.all {
		what = "all values"
	}
	number := v.rev.Number
	if v.shown == "" {
		number = v.number
	}
	v.text.View().SetTitle(fmt.Sprintf(" %s%s%s %s ", theme.Title, what, theme.Counter,
		tview.Escape(revisionTitle(v.key, number))) + v.text.Title())
	switch {
	case v.err != nil && v.shown == "":
		v.text.Show(v.err.Error(), nil)
	case v.shown == "":
		v.text.Show("reading the revision …", nil)
	case v.rel == "":
		v.text.Show("(none: the revision has no "+what+")", nil)
	default:
		v.text.Show(v.rel, v.colour())
	}
}

// colour is how the lines of the text are coloured: YAML as the YAML views colour it, notes as they are.
func (v *Text) colour() func(string) string {
	if v.what == notes || v.what == described {
		return nil
	}
	return v.nav.Theme().YAMLLine
}
