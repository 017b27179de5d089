package apply

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/ui/keymap"
	"kscope/ui/theme"
)

// View shows a dry run: per object whether the apply would create, change or leave it, the diff of the
// live object against the dry run's result, and the conflicts with other managers; `a` applies (asks
// first), `F` dry-runs again with force when there are conflicts (asks first). UI goroutine only.
type View struct {
	h       Host
	what    string
	items   []Item
	results []Result
	force   bool
	busy    bool
	text    *tview.TextView
}

// newView returns the view of rs, the dry run of items read from what.
func newView(h Host, what string, items []Item, rs []Result) *View {
	v := &View{h: h, what: what, items: items, results: rs}
	v.text = tview.NewTextView().SetDynamicColors(true).SetWrap(false)
	v.text.SetBorder(true)
	v.render()
	return v
}

// Crumb names the view.
func (v *View) Crumb() string { return "apply" }

// Primitive is the text.
func (v *View) Primitive() tview.Primitive { return v.text }

// Activate shows the plan again.
func (v *View) Activate() { v.render() }

// Close holds nothing.
func (v *View) Close() {}

// Escape goes back.
func (v *View) Escape() bool { return false }

// Typed takes no key.
func (v *View) Typed(*tcell.EventKey) bool { return false }

// NamespaceChanged does not concern the plan (its namespaces were chosen).
func (v *View) NamespaceChanged(string) {}

// Bindings: help, apply, force (only when there are conflicts and force is not on yet), quit.
func (v *View) Bindings() []keymap.Binding {
	keys := []keymap.Binding{v.h.HelpBinding(), keymap.Keys.Apply.Apply.Bind(v.apply)}
	if Count(v.results, Conflict) > 0 && !v.force {
		keys = append(keys, keymap.Keys.Apply.Force.Bind(v.askForce))
	}
	return append(keys, v.h.QuitBinding())
}

// Status counts what the apply would do and names the keys.
func (v *View) Status() string {
	s := fmt.Sprintf("[green]%d to create[-]  [yellow]%d to change[-]  %d unchanged", Count(v.results, Create),
		Count(v.results, Change), Count(v.results, Unchanged))
	if n := Count(v.results, Conflict); n > 0 {
		s += fmt.Sprintf("  [red]%d in conflict with %s[-]  (shift-f: force)", n, tview.Escape(strings.Join(Managers(v.results), ", ")))
	}
	if v.force {
		s += "  [red]force[-]"
	}
	return s + "  (a: apply)"
}

// render writes the plan.
func (v *View) render() {
	force := ""
	if v.force {
		force = "[red] force[white]"
	}
	v.text.SetTitle(fmt.Sprintf(" [aqua::b]apply[white] %s  %d objects%s (dry run) ", tview.Escape(v.what), len(v.results), force))
	var b strings.Builder
	for _, r := range v.results {
		fmt.Fprintf(&b, "%s %s  [gray]%s[-]\n", r.State.Label(), tview.Escape(r.What()), tview.Escape(r.Where()))
		for _, c := range r.Conflicts {
			fmt.Fprintf(&b, "  [red]%s is owned by %s[-]\n", tview.Escape(c.Field), tview.Escape(strconv.Quote(c.Manager)))
		}
		if r.State == Create || r.State == Change {
			b.WriteString(theme.DiffMarkup(r.Diff))
		}
		b.WriteString("\n")
	}
	v.text.SetText(b.String())
	v.h.ShowStatus()
}

// Label is the word the views of a dry run put before an object in state s, coloured.
func (s State) Label() string {
	switch s {
	case Create:
		return "[green::b]create   [-::-]"
	case Change:
		return "[yellow::b]change   [-::-]"
	case Unchanged:
		return "[gray::b]unchanged[-::-]"
	}
	return "[red::b]conflict [-::-]"
}

// askForce asks whether to take the conflicting fields, then dry-runs again with force.
func (v *View) askForce() {
	managers := strings.Join(Managers(v.results), ", ")
	q := fmt.Sprintf("Dry-run again with force, taking the conflicting fields from %s? Nothing is written until you apply.", managers)
	v.h.Confirm(q, "Force", func() {
		v.busy = true
		v.h.Message("dry run with force …")
		request(v.h, planTimeout(len(v.items)), func(ctx context.Context, c cluster.Interface) ([]Result, error) {
			return Plan(ctx, c, v.items, true)
		}, func(rs []Result, err error) {
			v.busy = false
			if err != nil {
				v.h.Errorf("apply %s: nothing applied: %s", v.what, err)
				return
			}
			v.results, v.force = rs, true
			v.h.Message("dry run with force: nothing written yet (a: apply)")
			v.render()
		})
	})
}

// apply asks, then sends the applies.
func (v *View) apply() {
	switch {
	case v.h.ReadOnly():
		v.h.Errorf("read-only mode: refusing to apply")
		return
	case v.busy:
		v.h.Message("apply: waiting for the server")
		return
	case Count(v.results, Conflict) > 0:
		v.h.Errorf("not applied: conflicts with %s (shift-f: dry-run again with force)", strings.Join(Managers(v.results), ", "))
		return
	}
	q := fmt.Sprintf("Apply %d objects (%d to create, %d to change, %d unchanged), server-side as kscope?", len(v.results),
		Count(v.results, Create), Count(v.results, Change), Count(v.results, Unchanged))
	if v.force {
		q = strings.TrimSuffix(q, "?") + ", with force?"
	}
	v.h.Confirm(q, "Apply", func() {
		v.busy = true
		v.h.Message(fmt.Sprintf("applying %d objects …", len(v.results)))
		rs, force := v.results, v.force
		request(v.h, planTimeout(len(rs)), func(ctx context.Context, c cluster.Interface) ([]string, error) {
			return ApplyAll(ctx, c, rs, force)
		}, func(done []string, err error) {
			v.busy = false
			if err != nil {
				v.h.Errorf("%s", failed(done, err))
				return
			}
			v.h.CloseScreen(v)
			v.h.Message("applied: " + strings.Join(done, ", "))
		})
	})
}

// failed is the line of an apply that stopped at err, after done.
func failed(done []string, err error) string {
	if len(done) == 0 {
		return fmt.Sprintf("apply: %s; nothing applied", err)
	}
	return fmt.Sprintf("applied %s; then %s; the rest not applied", strings.Join(done, ", "), err)
}

// ApplyAll sends the applies of rs, in order (force as asked), and returns what each did ("created
// configmaps shop/a"); it stops at the first error, naming the object. An object that existed carries
// the resourceVersion the dry run read: changed since, it is not applied (a Conflict). A conflict with
// other managers names them.
func ApplyAll(ctx context.Context, c cluster.Interface, rs []Result, force bool) ([]string, error) {
	var done []string
	for _, r := range rs {
		obj := r.Obj.DeepCopy()
		verb := "created"
		if r.Live != nil {
			obj.SetResourceVersion(r.Live.GetResourceVersion())
			verb = "configured"
			if r.State == Unchanged {
				verb = "unchanged"
			}
		}
		_, err := c.Apply(ctx, r.GVR, obj.GetNamespace(), obj, cluster.ApplyOptions{Force: force})
		if err != nil {
			return done, fmt.Errorf("%s: %s", r.What(), applyError(err))
		}
		done = append(done, verb+" "+r.What())
	}
	return done, nil
}

// applyError words a refused apply: the managers of the fields in conflict, the object changed since the
// dry run, or the server's error.
func applyError(err error) string {
	if conflicts := apierr.FieldConflicts(err); len(conflicts) > 0 {
		var parts []string
		for _, c := range conflicts {
			parts = append(parts, fmt.Sprintf("%s is owned by %q", c.Field, c.Manager))
		}
		return "conflict: " + strings.Join(parts, ", ")
	}
	if isConflict(err) {
		return "it changed since the dry run (conflict); not applied"
	}
	return apierr.OneLine(err.Error())
}
