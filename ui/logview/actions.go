package logview

import (
	"fmt"
	"strings"
)

// toggleFollow keeps the last line at the bottom, or stops there.
func (v *View) toggleFollow() {
	v.pane.follow = !v.pane.follow
	v.render()
}

// toggleTimestamps shows or hides each line's timestamp (the search matches what is shown).
func (v *View) toggleTimestamps() {
	v.pane.timestamps = !v.pane.timestamps
	if v.ring.Search() != nil || v.ring.Filter() != nil {
		v.ring.SetSearch(v.ring.Search(), v.pane.timestamps)
		v.pane.clampTop()
	}
	v.render()
}

// toggleWrap wraps long lines, or cuts them at the edge.
func (v *View) toggleWrap() {
	v.pane.wrap = !v.pane.wrap
	v.pane.topRow = 0
	v.render()
}

// save writes the lines kept that the filter shows, as the server sent them (timestamps per the toggle), to
// a new file in the save folder (Navigator.SaveFile).
func (v *View) save() {
	var b strings.Builder
	n := 0
	for seq, ok := v.ring.NextShown(v.ring.Dropped()); ok; seq, ok = v.ring.NextShown(seq + 1) {
		l, _ := v.ring.At(seq)
		b.WriteString(l.Display(v.pane.timestamps))
		b.WriteByte('\n')
		n++
	}
	name := fmt.Sprintf("%s-%s-%s.log", v.logs.namespace, v.logs.name, v.nav.Clock().Now().Format("20060102-150405"))
	path, err := v.nav.SaveFile("logs", strings.TrimPrefix(name, "-"), []byte(b.String()))
	if err != nil {
		v.nav.Errorf("save the logs: %s", err)
		return
	}
	v.nav.Message(fmt.Sprintf("saved %d lines to %s", n, path))
}

// copyVisible copies the lines on screen, as the server sent them (timestamps per the toggle).
func (v *View) copyVisible() {
	var b strings.Builder
	for seq := v.pane.drawnFrom; seq < v.pane.drawnTo; seq++ {
		if l, ok := v.ring.At(seq); ok && !l.Hidden {
			b.WriteString(l.Display(v.pane.timestamps))
			b.WriteByte('\n')
		}
	}
	v.nav.CopyToClipboard("the lines on screen", b.String())
}
