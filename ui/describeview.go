package ui

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/types"

	"kscope/discovery"
	"kscope/watch"
)

// describeEvery is the least time between two describes of the same object.
const describeEvery = time.Second

// DescribeView shows what `kubectl describe` prints for one object, described again whenever the object
// changes (at most once a second), with the YAML view's `/` search. A goroutine watches the object and
// describes it; everything else runs on the UI goroutine.
type DescribeView struct {
	BaseScreen
	app    *App
	res    discovery.Resource
	row    *watch.Row
	text   *searchText
	access *accessCache
	// health is the header with the object's health and conditions.
	health *healthPanel

	described string
	// uid is the UID of the object as last seen by the view's watch ("" until then).
	uid     types.UID
	deleted bool
	err     error
	cancel  context.CancelFunc
}

// NewDescribeView returns the describe view of row, an object of res.
func NewDescribeView(a *App, res discovery.Resource, row *watch.Row) *DescribeView {
	v := &DescribeView{app: a, res: res, row: row, text: newSearchText(), access: newAccessCache(a)}
	v.health = newHealthPanel(a, v.text.view)
	return v
}

func (v *DescribeView) Crumb() string              { return "describe " + v.row.Name }
func (v *DescribeView) Primitive() tview.Primitive { return v.health.primitive() }

// Bindings are the describe view's keys: search, YAML, and the object's other actions.
func (v *DescribeView) Bindings() []Binding {
	keys := []Binding{
		v.app.HelpBinding(),
		Keys.Describe.Search.Bind(v.openSearchBar),
		Keys.Describe.NextMatch.Bind(func() { v.text.next(v.render) }),
		Keys.Describe.YAML.Bind(func() { v.app.openYAML(v.res, v.row) }),
		Keys.Describe.Copy.Bind(func() { v.app.copyToClipboard("the description of "+v.row.Name, v.described) }),
		v.health.binding(),
	}
	scope := func() (discovery.Resource, string) { return v.res, v.row.Namespace }
	for _, b := range v.app.objectBindings(v.subject, scope, v.access) {
		if b.Name != Keys.Object.Describe.Name {
			keys = append(keys, b)
		}
	}
	return append(keys, v.app.QuitBinding())
}

// subject is the object described, for the object actions: its UID the one last seen (so a write never
// reaches another object of the same name); none once it is deleted.
func (v *DescribeView) subject() (discovery.Resource, *watch.Row, bool) {
	if v.deleted {
		return goneSubject(v.app, v.res, v.row)
	}
	return v.res, shownRow(v.row, v.uid), true
}

// Escape clears the search.
func (v *DescribeView) Escape() bool { return v.text.clear(v.render) }

func (v *DescribeView) openSearchBar() { v.app.bar.Open("/", "", v.setSearch, nil) }

// setSearch highlights text (case-insensitive) and scrolls to its first match.
func (v *DescribeView) setSearch(text string) { v.text.searchFor(v.app, text, v.render) }

// describedText is one describe's outcome, or the object's deletion.
type describedText struct {
	text    string
	err     error
	deleted bool
	// uid, when set, is the UID of the object the watch just saw (then nothing else is set).
	uid types.UID
}

func (v *DescribeView) Activate() {
	if v.cancel == nil {
		ctx, cancel := context.WithCancel(v.app.ctx)
		v.cancel = cancel
		cluster, res, ns, name := v.app.cluster, v.res, v.row.Namespace, v.row.Name
		v.health.follow(ctx, v.res, v.row)
		v.app.goSafe(func() {
			v.describeLoop(ctx, cluster, res, ns, name, func(d describedText) {
				v.app.tv.QueueUpdateDraw(func() {
					if ctx.Err() == nil {
						v.apply(d)
					}
				})
			})
		})
	}
	v.render()
}

func (v *DescribeView) Close() {
	if v.cancel != nil {
		v.cancel()
	}
}

// describeLoop describes the object at once, then after each change of it (watched), no sooner than
// describeEvery after the previous describe, until ctx ends. Its own goroutine.
func (v *DescribeView) describeLoop(ctx context.Context, cluster Cluster, res discovery.Resource, ns, name string, show func(describedText)) {
	clk := v.app.opts.Clock
	events := cluster.WatchObject(ctx, res.GVR(), ns, name)
	var last time.Time
	pending, first, initial := true, true, true
	for {
		var due <-chan time.Time
		if pending {
			wait := describeEvery - clk.Since(last)
			if first || wait <= 0 {
				describeCtx, cancel := context.WithTimeout(ctx, RequestTimeout)
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
		v.text.show(v.described, colourDescribeKey)
	}
	title := fmt.Sprintf(" %sdescribe %s%s %s ", v.app.theme.Title, tview.Escape(v.res.Name), v.app.theme.Counter, tview.Escape(v.row.Key))
	v.text.view.SetTitle(title + titleState(v.deleted, v.err) + v.text.title())
	v.app.updateStatus(v)
}

// Status says whether the text follows the object, and the verbs the user may not use here.
func (v *DescribeView) Status() string {
	state := "[green]live[-] (described again when it changes)"
	if v.deleted {
		state = "[red]deleted[-]"
	}
	return state + notPermitted(v.Bindings())
}

// notPermitted is the status line's note of the keys the server said the user may not use ("" if none).
func notPermitted(bs []Binding) string {
	if names := deniedNames(bs); names != "" {
		return "  [red]not permitted: " + tview.Escape(names) + "[-]"
	}
	return ""
}
