package helm

import (
	"context"
	"fmt"
	"strings"

	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/ui"
	"kscope/ui/apply"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/ui/theme"
)

// Upgrade is the dry run of an upgrade with edited values (UpgradePlan): the values' diff, then each object
// of the rendered manifest (create, change, unchanged, with its diff against the live object) and those Helm
// would delete; its key upgrades the release (asks first, the latest revision the plan was made from as the
// precondition). UI goroutine only.
type Upgrade struct {
	ui.BaseScreen
	nav  ui.Navigator
	c    cluster.Interface
	plan UpgradePlan
	text *tview.TextView
	life screenlife.Life

	busy bool
	done int // the revision the upgrade made (0: not upgraded)
}

// NewUpgrade returns the view of plan, upgraded through c.
func NewUpgrade(nav ui.Navigator, c cluster.Interface, plan UpgradePlan) *Upgrade {
	v := &Upgrade{nav: nav, c: c, plan: plan, text: tview.NewTextView().SetDynamicColors(true).SetWrap(false)}
	v.text.SetBorder(true)
	return v
}

func (v *Upgrade) Crumb() string              { return "upgrade" }
func (v *Upgrade) Primitive() tview.Primitive { return v.text }
func (v *Upgrade) Close()                     { v.life.Stop() }

// Activate shows the plan.
func (v *Upgrade) Activate() {
	v.life.Start(v.nav, func(context.Context) {})
	v.render()
}

// Bindings: help, upgrade (until it is done), quit.
func (v *Upgrade) Bindings() []keymap.Binding {
	out := []keymap.Binding{v.nav.HelpBinding()}
	if v.done == 0 && !v.busy {
		out = append(out, keys.Apply.Bind(v.ask))
	}
	return append(out, v.nav.QuitBinding())
}

// Status counts what the upgrade would do, and names the key.
func (v *Upgrade) Status() string {
	r := v.plan.Results
	s := fmt.Sprintf("[green]%d to create[-]  [yellow]%d to change[-]  [red]%d to delete[-]  %d unchanged",
		apply.Count(r, apply.Create), apply.Count(r, apply.Change), len(v.plan.Deleted), apply.Count(r, apply.Unchanged))
	switch {
	case v.done > 0:
		return s + fmt.Sprintf("  [green]upgraded: revision %d[-]", v.done)
	case v.busy:
		return s + "  upgrading …"
	}
	return s + fmt.Sprintf("  (%s: upgrade)", keys.Apply.Key.Label)
}

// render writes the plan.
func (v *Upgrade) render() {
	p := v.plan
	th := v.nav.Theme()
	v.text.SetTitle(fmt.Sprintf(" %supgrade%s %s  revision %d → %d (dry run) ", th.Title, th.Counter,
		tview.Escape(p.Latest.Key()), p.Latest.Number, p.Revision))
	var b strings.Builder
	b.WriteString("[::b]values (user-supplied)[::-]\n")
	b.WriteString(theme.DiffMarkup(p.ValuesDiff))
	b.WriteString("\n\n[::b]objects[::-] [gray](the server's dry run of each, against the live one)[-]\n")
	for _, r := range p.Results {
		fmt.Fprintf(&b, "%s %s\n", r.State.Label(), tview.Escape(r.What()))
		if r.State == apply.Create || r.State == apply.Change {
			b.WriteString(theme.DiffMarkup(r.Diff))
		}
	}
	for _, o := range p.Deleted {
		where := o.Name
		if o.Namespace != "" {
			where = o.Namespace + "/" + o.Name
		}
		fmt.Fprintf(&b, "[red::b]delete   [-::-] %s %s\n", tview.Escape(o.Kind), tview.Escape(where))
	}
	v.text.SetText(b.String())
	v.nav.UpdateStatus(v)
}

// ask asks (Cancel first), then upgrades the release with the plan's values, saying how it went.
func (v *Upgrade) ask() {
	p := v.plan
	key := p.Latest.Key()
	q := fmt.Sprintf("Upgrade release %s from revision %d to revision %d with the edited values? Helm applies the "+
		"manifest shown (%d to create, %d to change, %d to delete) and runs the chart's hooks in the cluster.", key,
		p.Latest.Number, p.Revision, apply.Count(p.Results, apply.Create), apply.Count(p.Results, apply.Change), len(p.Deleted))
	v.nav.Confirm(q, "Upgrade", func() {
		v.busy = true
		v.nav.Message(fmt.Sprintf("upgrading release %s …", key))
		v.nav.UpdateStatus(v)
		v.life.Go(func(ctx context.Context) {
			up, err := v.c.HelmUpgrade(ctx, release(p.Latest), p.Values, false)
			v.life.Update(func() {
				v.busy = false
				if err != nil {
					v.nav.Errorf("%s", err.Error())
					v.nav.UpdateStatus(v)
					return
				}
				v.done = up.Revision
				v.nav.Message(fmt.Sprintf("upgraded release %s to revision %d", key, up.Revision))
				v.nav.UpdateStatus(v)
			})
		})
	})
}
