package versions

import (
	"fmt"
	"strings"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/watch"
)

// blameColour is the colour of the i-th manager to appear in the blame view, to tell them apart.
func blameColour(i int) string {
	colours := [...]string{"yellow", "fuchsia", "aqua", "orange", "lime", "violet", "skyblue", "coral"}
	return colours[i%len(colours)]
}

// BlameView shows an object's YAML with each line's field manager and the age of that manager's last
// write, from metadata.managedFields; fields no manager owns are marked. It shows the object as it was when
// opened. UI goroutine only.
type BlameView struct {
	ui.BaseScreen
	nav    ui.Navigator
	row    *watch.Row
	obj    *unstructured.Unstructured
	text   *tview.TextView
	reveal bool
}

// NewBlame returns the blame of obj, the object of row, as it is now (ui.Roles.Blame); obj is not
// nil, and not modified.
func NewBlame(nav ui.Navigator, row *watch.Row, obj *unstructured.Unstructured) ui.Screen {
	v := &BlameView{nav: nav, row: row, obj: obj}
	v.text = tview.NewTextView().SetDynamicColors(true).SetWrap(false)
	v.text.SetBorder(true)
	return v
}

func (v *BlameView) Crumb() string              { return "blame " + v.row.Name }
func (v *BlameView) Primitive() tview.Primitive { return v.text }
func (v *BlameView) Close()                     {}
func (v *BlameView) Activate()                  { v.render() }

// Bindings are the blame view's keys.
func (v *BlameView) Bindings() []keymap.Binding {
	return []keymap.Binding{
		v.nav.HelpBinding(),
		keymap.Keys.Versions.Reveal.Bind(func() { v.reveal = !v.reveal; v.render() }),
		v.nav.QuitBinding(),
	}
}

// render writes the annotated lines.
func (v *BlameView) render() {
	lines, err := blameYAML(v.obj, v.reveal)
	if err != nil {
		v.nav.Errorf("%s", err.Error())
		return
	}
	now := v.nav.Clock().Now()
	notes := make([]string, len(lines))
	colours := map[string]string{}
	width := len(unownedNote)
	for i, l := range lines {
		var names []string
		for _, o := range l.owners {
			name := o.Name()
			if !o.Time.IsZero() {
				name += " " + watch.FormatAge(max(now.Sub(o.Time), 0))
			}
			names = append(names, name)
			if _, ok := colours[o.Name()]; !ok {
				colours[o.Name()] = blameColour(len(colours))
			}
		}
		notes[i] = strings.Join(names, ", ")
		width = max(width, len(notes[i]))
	}
	var b strings.Builder
	for i, l := range lines {
		note, colour := notes[i], "gray"
		switch {
		case len(l.owners) > 0:
			colour = colours[l.owners[0].Name()]
		case !l.blank:
			note = unownedNote
		}
		fmt.Fprintf(&b, "[%s]%-*s[-] │ %s\n", colour, width, tview.Escape(note), v.nav.Theme().YAMLLine(l.text))
	}
	v.text.SetText(b.String())
	v.text.SetTitle(fmt.Sprintf(" [aqua::b]blame[white] %s at resourceVersion %s ", tview.Escape(v.row.Key),
		tview.Escape(v.obj.GetResourceVersion())))
	v.nav.UpdateStatus(v)
}

// unownedNote marks a line whose field no manager owns.
const unownedNote = "(no manager)"

// Status explains the annotations.
func (v *BlameView) Status() string {
	return "manager and age of its last write, from managedFields  [gray]" + unownedNote + ": a field no manager owns[-]"
}
