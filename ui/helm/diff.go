package helm

import (
	"context"
	"fmt"

	"github.com/rivo/tview"

	"kscope/helm"
	"kscope/history"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/ui/theme"
)

// diffContext is how many unchanged lines a diff shows around each change; longer runs are folded.
const diffContext = 3

// Diff shows what changed from one revision of a release to its latest: the user's values, then the
// manifest (lines removed red, added green, unchanged runs folded) — what a rollback to the older one would
// undo, or an upgrade did. UI goroutine only.
type Diff struct {
	ui.BaseScreen
	nav      ui.Navigator
	key      string
	from, to helm.Revision
	get      helm.Getter
	text     *tview.TextView
	life     screenlife.Life
}

// NewDiff returns the diff from revision from to revision to of the release key, read through get.
func NewDiff(nav ui.Navigator, get helm.Getter, key string, from, to helm.Revision) *Diff {
	v := &Diff{nav: nav, key: key, from: from, to: to, get: get,
		text: tview.NewTextView().SetDynamicColors(true).SetWrap(false)}
	v.text.SetBorder(true)
	v.text.SetTitle(fmt.Sprintf(" %sdiff%s %s  revision %d → %d ", nav.Theme().Title, nav.Theme().Counter,
		tview.Escape(key), from.Number, to.Number))
	v.text.SetText("reading the revisions …")
	return v
}

func (v *Diff) Crumb() string              { return fmt.Sprintf("diff %d", v.from.Number) }
func (v *Diff) Primitive() tview.Primitive { return v.text }
func (v *Diff) Close()                     { v.life.Stop() }

// Bindings: help, quit.
func (v *Diff) Bindings() []keymap.Binding {
	return []keymap.Binding{v.nav.HelpBinding(), v.nav.QuitBinding()}
}

// Status names the colours.
func (v *Diff) Status() string {
	return fmt.Sprintf("[red]- revision %d[-]  [green]+ revision %d[-]  [gray]⋯ unchanged lines folded[-]", v.from.Number, v.to.Number)
}

// Activate reads both revisions the first time, off the UI goroutine, and shows their diff.
func (v *Diff) Activate() {
	v.life.Start(v.nav, func(context.Context) {
		from, to, get := v.from, v.to, v.get
		v.life.Go(func(ctx context.Context) {
			text, err := revisionsDiff(ctx, get, from, to)
			v.life.Update(func() {
				if err != nil {
					v.text.SetText("[red]" + tview.Escape(err.Error()) + "[-]")
					return
				}
				v.text.SetText(text)
			})
		})
	})
}

// revisionsDiff decodes from and to and returns the markup of their values' and manifests' diffs.
func revisionsDiff(ctx context.Context, get helm.Getter, from, to helm.Revision) (string, error) {
	var texts [2]string
	for i, r := range []helm.Revision{from, to} {
		rctx, cancel := context.WithTimeout(ctx, ui.RequestTimeout)
		rel, err := helm.Decode(rctx, get, r)
		cancel()
		if err != nil {
			return "", err
		}
		vals, err := helm.Values(rel, false)
		if err != nil {
			return "", err
		}
		texts[i] = "# values (user-supplied)\n" + vals + "\n# manifest\n" + rel.Manifest
	}
	if texts[0] == texts[1] {
		return fmt.Sprintf("[gray]revisions %d and %d have the same values and manifest[-]", from.Number, to.Number), nil
	}
	lines := history.FoldDiff(history.DiffLines(history.TextLines(texts[0]), history.TextLines(texts[1])), diffContext)
	return theme.DiffMarkup(lines), nil
}
