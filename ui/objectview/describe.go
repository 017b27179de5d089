package objectview

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/ui/searchtext"
	"kscope/ui/verbs"
	"kscope/watch"
)

// describeEvery is the least time between two describes of the same object.
const describeEvery = time.Second

// DescribeView shows what `kubectl describe` prints for one object, described again whenever the object
// changes (at most once a second), with the YAML view's `/` search. A goroutine watches the object and
// describes it; everything else runs on the UI goroutine.
type DescribeView struct {
	ui.BaseScreen
	nav  ui.Navigator
	res  discovery.Resource
	row  *watch.Row
	obj  ui.ObjectView
	text *searchtext.Text
	// health is the header with the object's health and conditions.
	health *healthPanel

	described string
	// uid is the UID of the object as last seen by the view's watch ("" until then).
	uid     types.UID
	deleted bool
	err     error
	life    screenlife.Life // the watch and the describes
}

// NewDescribeView returns the describe view of row, an object of res; obj is what ui hands it (the object
// keys, the opener of the YAML view). It plays ui.Roles.Describe (Spec).
func NewDescribeView(nav ui.Navigator, res discovery.Resource, row *watch.Row, obj ui.ObjectView) ui.Screen {
	v := &DescribeView{nav: nav, res: res, row: row, obj: obj, text: searchtext.New()}
	v.health = newHealthPanel(nav, v.text.View())
	return v
}

// Crumb is "describe" and the object's name.
func (v *DescribeView) Crumb() string { return "describe " + v.row.Name }

// Primitive is the health panel over the text.
func (v *DescribeView) Primitive() tview.Primitive { return v.health.primitive() }

// Bindings are the describe view's keys: search, YAML, and the object's other actions.
func (v *DescribeView) Bindings() []keymap.Binding {
	keys := []keymap.Binding{
		v.nav.HelpBinding(),
		keymap.Keys.Describe.Search.Bind(v.openSearchBar),
		keymap.Keys.Describe.NextMatch.Bind(func() { v.text.Next(v.render) }),
	}
	if open := v.obj.YAML; open != nil {
		keys = append(keys, keymap.Keys.Describe.YAML.Bind(open))
	}
	keys = append(keys,
		keymap.Keys.Describe.Copy.Bind(func() { v.nav.CopyToClipboard("the description of "+v.row.Name, v.described) }),
		v.health.binding(),
	)
	for _, b := range v.obj.Keys(v.subject) {
		if b.Name != keymap.Keys.Object.Describe.Name {
			keys = append(keys, b)
		}
	}
	return append(keys, v.nav.QuitBinding())
}

// subject is the object described, for the object keys: the UID last seen ("" before) and whether it was
// deleted.
func (v *DescribeView) subject() (types.UID, bool) { return v.uid, v.deleted }

// Escape clears the search.
func (v *DescribeView) Escape() bool { return v.text.Clear(v.render) }

func (v *DescribeView) openSearchBar() { v.nav.Ask("/", "", v.setSearch) }

// setSearch highlights text (case-insensitive) and scrolls to its first match.
func (v *DescribeView) setSearch(text string) { v.text.SearchFor(v.nav, text, v.render) }

// describedText is one describe's outcome, or the object's deletion.
type describedText struct {
	text    string
	err     error
	deleted bool
	// uid, when set, is the UID of the object the watch just saw (then nothing else is set).
	uid types.UID
}

// Activate starts the object's watch and describes, the first time.
func (v *DescribeView) Activate() {
	v.life.Start(v.nav, func(context.Context) {
		cluster, res, ns, name := v.nav.Cluster(), v.res, v.row.Namespace, v.row.Name
		v.health.follow(&v.life, v.res, v.row)
		v.life.Go(func(ctx context.Context) {
			v.describeLoop(ctx, cluster, res, ns, name, func(d describedText) {
				v.life.Update(func() { v.apply(d) })
			})
		})
	})
	v.render()
}

// Close stops the watch and the describes.
func (v *DescribeView) Close() { v.life.Stop() }

// describeLoop describes the object at once, then after each change of it (watched), no sooner than
// describeEvery after the previous describe, until ctx ends. Its own goroutine.
func (v *DescribeView) describeLoop(ctx context.Context, cluster cluster.Interface, res discovery.Resource, ns, name string, show func(describedText)) {
	clk := v.nav.Clock()
	events := cluster.WatchObject(ctx, res.GVR(), ns, name)
	var last time.Time
	pending, first, initial := true, true, true
	for {
		var due <-chan time.Time
		if pending {
			wait := describeEvery - clk.Since(last)
			if first || wait <= 0 {
				describeCtx, cancel := context.WithTimeout(ctx, ui.RequestTimeout)
				text, err := cluster.Describe(describeCtx, res, ns, name)
				cancel()
				if ctx.Err() != nil {
					return
				}
				show(describedText{text: text, err: err})
				last, pending, first = clk.Now(), false, false
				continue
			}
			due = clk.After(wait)
		}
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			switch {
			case ev.Deleted:
				show(describedText{deleted: true})
			case ev.Object != nil:
				show(describedText{uid: ev.Object.GetUID()})
				pending = pending || !initial // the initial state is the one just described
			}
			initial = false
		case <-due:
		}
	}
}

// apply takes one describe (or the deletion).
func (v *DescribeView) apply(d describedText) {
	switch {
	case d.uid != "":
		was := v.deleted
		v.uid, v.deleted = d.uid, false
		if !was {
			return
		}
	case d.deleted:
		v.deleted = true
	case d.err != nil:
		v.err = d.err
	default:
		v.described, v.err, v.deleted = d.text, nil, false
	}
	v.render()
}

// describeKey matches a describe field name at the start of a line ("Name:", "  Ready:").
var describeKey = regexp.MustCompile(`^(\s*)([A-Z][^:\t]*):(\s|$)`)

// colourDescribeKey escapes one describe line, its field name (if any) in steel blue.
func colourDescribeKey(line string) string {
	m := describeKey.FindStringSubmatchIndex(line)
	if m == nil {
		return tview.Escape(line)
	}
	return tview.Escape(line[:m[4]]) + "[steelblue]" + tview.Escape(line[m[4]:m[5]]) + "[-]" + tview.Escape(line[m[5]:])
}

// render rewrites the text, keeping the scroll position.
func (v *DescribeView) render() {
	if v.described != "" {
		v.text.Show(v.described, colourDescribeKey)
	}
	theme := v.nav.Theme()
	title := fmt.Sprintf(" %sdescribe %s%s %s ", theme.Title, tview.Escape(v.res.Name), theme.Counter, tview.Escape(v.row.Key))
	v.text.View().SetTitle(title + titleState(v.deleted, v.err) + v.text.Title())
	v.nav.UpdateStatus(v)
}

// Status says whether the text follows the object, and the verbs the user may not use here.
func (v *DescribeView) Status() string {
	state := "[green]live[-] (described again when it changes)"
	if v.deleted {
		state = "[red]deleted[-]"
	}
	return state + verbs.NotPermitted(v.Bindings())
}
