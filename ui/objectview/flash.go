package objectview

import (
	"context"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/clock"

	"kscope/history"
	"kscope/ui"
)

// yamlFlashFor is how long the YAML view highlights the lines an update changed.
const yamlFlashFor = 3 * time.Second

// lineFlash is the lines of the YAML view's text that the last update changed, highlighted until a moment
// on the app's clock. A timer redraws the view when it ends. UI goroutine only, but for the timer's
// goroutine, which only queues a redraw, and ends with ctx (the view's watch).
type lineFlash struct {
	ctx     context.Context
	text    string // the YAML the marks belong to: another (toggled managedFields, masking) shows none
	changed []bool
	until   time.Time
	timer   clock.Timer
}

// noteChange marks the lines of next's YAML that differ from v.shown's (as the view shows them now), to be
// highlighted for yamlFlashFor. The first version marks nothing.
func (v *YAMLView) noteChange(next *unstructured.Unstructured) {
	if v.shown == nil || next == nil {
		return
	}
	old, err := ui.RenderYAML(v.shown, v.showManaged, v.reveal)
	if err != nil {
		return
	}
	cur, err := ui.RenderYAML(next, v.showManaged, v.reveal)
	if err != nil {
		return
	}
	f := &v.flash
	f.text, f.changed = cur, history.ChangedLines(history.TextLines(old), history.TextLines(cur))
	f.until = v.nav.Clock().Now().Add(yamlFlashFor)
	if f.timer != nil {
		f.timer.Reset(yamlFlashFor)
		return
	}
	f.timer = v.nav.Clock().NewTimer(yamlFlashFor)
	timer, ctx := f.timer, f.ctx
	if ctx == nil {
		ctx = v.nav.Context()
	}
	v.nav.Go(func() { v.expireFlash(ctx, timer) })
}

// expireFlash redraws the view each time the flash's timer fires, until ctx ends.
func (v *YAMLView) expireFlash(ctx context.Context, timer clock.Timer) {
	for {
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C():
			v.nav.Update(v.render)
		}
	}
}

// showYAML shows text, the lines the last update changed highlighted while the flash lasts.
func (v *YAMLView) showYAML(text string) {
	f := &v.flash
	if f.text != text || !v.nav.Clock().Now().Before(f.until) {
		v.text.Show(text, v.nav.Theme().YAMLLine)
		return
	}
	v.text.ShowIndexed(text, func(i int, line string) string {
		if body := strings.TrimSuffix(line, "\n"); i < len(f.changed) && f.changed[i] {
			return "[:" + flashBackground + "]" + v.nav.Theme().YAMLLine(body) + "[:-]" + line[len(body):]
		}
		return v.nav.Theme().YAMLLine(line)
	})
}

// flashBackground is the background of a changed line.
const flashBackground = "darkgreen"
