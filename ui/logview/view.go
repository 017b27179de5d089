package logview

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/logs"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/screenlife"
	"kscope/ui/theme"
)

// defaultLogLines is how many lines a logs view keeps when LogSettings.Lines is not set (k9s's default).
const defaultLogLines = 5000

// logTailLines is how many of a container's last lines the view starts with (kubectl logs --tail).
const logTailLines = 200

// View shows the logs of one pod's containers, or of every pod of a workload, live: the last 200 lines
// of each first, then new lines as they come (kubectl logs -f --tail 200), in a ring of LogSettings.Lines
// lines. Followers (logs.Follower) read the streams on their own goroutines into a logs.Sink; the view takes
// their lines on the UI goroutine, in batched redraws (Navigator.SpaceRedraw). Everything else runs on the
// UI goroutine.
type View struct {
	ui.BaseScreen
	nav      ui.Navigator
	settings ui.LogSettings
	logs     subject
	cluster  cluster.Interface // the one the view was opened on
	ring     *logs.Ring
	sink     *logs.Sink
	pane     *logPane
	// life is the view's reading, from its first show to its Close.
	life screenlife.Life
	// reading ends the followers and the loop of the current range (a child of life's context).
	reading  context.Context
	stopRead context.CancelFunc
	pods     *logPods // the workload's pods (nil for one pod)
	run      map[string]context.CancelFunc
	state    map[string]logs.State
	// span is how much of each log the followers read first (a time range key changes it).
	span logs.Range

	search string
}

// subject is what a logs view reads: one pod's containers, or the pods a selector matches (a workload's),
// each line prefixed like kubectl logs --prefix when there is more than one container.
type subject struct {
	// kind and name name the subject in the title and the crumb ("pods", "web-1"; "deployments", "web").
	kind, name string
	namespace  string
	// pod and containers are the one pod's (selector empty).
	pod        string
	containers []string
	// selector is a workload's pods' label selector.
	selector string
	previous bool
}

// prefixed tells whether the lines carry a [pod/NAME/CONTAINER] prefix.
func (s subject) prefixed() bool { return s.selector != "" || len(s.containers) > 1 }

// tailLines is how many of a container's last lines the view starts with (LogSettings.Tail, else 200).
func (v *View) tailLines() int64 {
	if n := v.settings.Tail; n > 0 {
		return int64(n)
	}
	return logTailLines
}

// newView returns the logs view of s; nothing is read until it is shown.
func newView(nav ui.Navigator, s subject, settings ui.LogSettings) *View {
	capacity := settings.Lines
	if capacity <= 0 {
		capacity = defaultLogLines
	}
	v := &View{nav: nav, settings: settings, logs: s, ring: logs.NewRing(capacity), sink: logs.NewSink(capacity),
		run: map[string]context.CancelFunc{}, state: map[string]logs.State{}}
	v.pane = newLogPane(v.ring)
	v.pane.fg = nav.Theme().LogFg
	for _, o := range []struct {
		set *bool
		to  *bool
	}{{settings.Wrap, &v.pane.wrap}, {settings.Timestamps, &v.pane.timestamps}, {settings.Follow, &v.pane.follow}} {
		if o.set != nil {
			*o.to = *o.set
		}
	}
	v.pane.scrolled = v.render
	return v
}

// Crumb is "logs NAME" ("logs -p NAME" for the previous instances).
func (v *View) Crumb() string {
	if v.logs.previous {
		return "logs -p " + v.logs.name
	}
	return "logs " + v.logs.name
}

// Primitive is the pane of lines.
func (v *View) Primitive() tview.Primitive { return v.pane }

// SkinBackground implements ui.SkinnedScreen: the skin's views.logs.bgColor.
func (*View) SkinBackground(t *theme.Theme) (tcell.Color, bool) { return t.LogBg, t.HasLogBg }

// Bindings are the logs view's keys: keymap.Keys.Logs, between help and quit.
func (v *View) Bindings() []keymap.Binding {
	return []keymap.Binding{
		v.nav.HelpBinding(),
		keymap.Keys.Logs.Search.Bind(v.openSearchBar),
		keymap.Keys.Logs.Filter.Bind(v.openFilterBar),
		keymap.Keys.Logs.NextMatch.Bind(func() { v.nextMatch(true) }),
		keymap.Keys.Logs.PrevMatch.Bind(func() { v.nextMatch(false) }),
		keymap.Keys.Logs.Follow.Bind(v.toggleFollow),
		keymap.Keys.Logs.Timestamps.Bind(v.toggleTimestamps),
		keymap.Keys.Logs.Wrap.Bind(v.toggleWrap),
		keymap.Keys.Logs.JSON.Bind(v.toggleJSON),
		keymap.Keys.Logs.Tail.Bind(func() { v.setRange(logs.Range{}) }),
		keymap.Keys.Logs.Since1m.Bind(v.rangeSince(time.Minute)),
		keymap.Keys.Logs.Since5m.Bind(v.rangeSince(5 * time.Minute)),
		keymap.Keys.Logs.Since15m.Bind(v.rangeSince(15 * time.Minute)),
		keymap.Keys.Logs.Since30m.Bind(v.rangeSince(30 * time.Minute)),
		keymap.Keys.Logs.Since1h.Bind(v.rangeSince(time.Hour)),
		keymap.Keys.Logs.All.Bind(func() { v.setRange(logs.Range{All: true}) }),
		keymap.Keys.Logs.Copy.Bind(v.copyVisible),
		keymap.Keys.Logs.Save.Bind(v.save),
		v.nav.QuitBinding(),
	}
}

// Activate starts reading the first time, and shows the title and status.
func (v *View) Activate() {
	v.life.Start(v.nav, v.start)
	v.render()
}

// start begins reading, under the life's context: the containers of the one pod, or the pods of the
// selector as they come and go. Life.Start calls it once.
func (v *View) start(context.Context) {
	v.cluster = v.nav.Cluster()
	v.startReading()
	if v.logs.selector == "" {
		for _, c := range v.logs.containers {
			v.follow(v.logs.pod, c)
		}
		return
	}
	pods, err := newLogPods(v)
	if err != nil {
		v.nav.Errorf("logs of %s: %s", v.logs.name, err)
		return
	}
	v.pods = pods
}

// Close stops the followers and the watch of the pods.
func (v *View) Close() {
	v.life.Stop()
	if v.pods != nil {
		v.pods.close()
	}
}

// follow starts reading one container's log.
func (v *View) follow(pod, container string) {
	key := pod + "/" + container
	if _, ok := v.run[key]; ok {
		return
	}
	ctx, cancel := context.WithCancel(v.reading)
	v.run[key] = cancel
	c, ns := v.cluster, v.logs.namespace
	req := cluster.LogRequest{Namespace: ns, Pod: pod, Container: container, Previous: v.logs.previous,
		Follow: !v.logs.previous}
	v.span.Apply(&req, v.tailLines())
	f := &logs.Follower{
		Key:   key,
		Req:   req,
		Open:  c.Logs,
		Sink:  v.sink,
		Clock: v.nav.Clock(),
		Ended: func(ctx context.Context, _ error) (bool, string) {
			return logs.ContainerEnded(ctx, c, ns, pod, container)
		},
	}
	if v.logs.prefixed() {
		f.Prefix = fmt.Sprintf("[pod/%s/%s] ", pod, container)
	}
	v.nav.Go(func() { f.Run(ctx) })
}

// unfollow stops reading the containers of pod (it was deleted).
func (v *View) unfollow(pod string) {
	for key, cancel := range v.run {
		if strings.HasPrefix(key, pod+"/") {
			cancel()
			delete(v.run, key)
			v.sink.Forget(key)
		}
	}
}

// startReading starts the loop of a new range: the followers started from now on read under v.reading
// into v.sink.
func (v *View) startReading() {
	v.reading, v.stopRead = context.WithCancel(v.life.Context())
	ctx, sink := v.reading, v.sink
	v.nav.Go(func() { v.loop(ctx, sink) })
}

// loop takes what the followers read into sink to the UI goroutine, at most once per
// Navigator.SpaceRedraw, until ctx ends.
func (v *View) loop(ctx context.Context, sink *logs.Sink) {
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-sink.Notify():
		}
		if !v.nav.SpaceRedraw(ctx, &last) {
			return
		}
		screenlife.UpdateWhile(v.nav, ctx, v.pull)
	}
}

// pull moves the sink's lines into the ring and redraws.
func (v *View) pull() {
	lines, dropped, states := v.sink.Take()
	if dropped > 0 {
		v.ring.Lose(dropped)
	}
	v.ring.Push(lines...)
	if states != nil {
		v.state = states
	}
	v.render()
}
