package ui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/rivo/tview"

	"kscope/logs"
)

// defaultLogLines is how many lines a logs view keeps when Options.LogLines is not set (k9s's default).
const defaultLogLines = 5000

// logTailLines is how many of a container's last lines the view starts with (kubectl logs --tail).
const logTailLines = 200

// LogView shows the logs of one pod's containers, or of every pod of a workload, live: the last 200 lines
// of each first, then new lines as they come (kubectl logs -f --tail 200), in a ring of Options.LogLines
// lines. Followers (logs.Follower) read the streams on their own goroutines into a logs.Sink; the view takes
// their lines on the UI goroutine, in batched redraws. Everything else runs on the UI goroutine.
type LogView struct {
	BaseScreen
	app   *App
	logs  logSubject
	ring  *logs.Ring
	sink  *logs.Sink
	pane  *logPane
	ctx   context.Context
	stop  context.CancelFunc
	pods  *logPods // the workload's pods (nil for one pod)
	run   map[string]context.CancelFunc
	state map[string]logs.State

	search string
}

// logSubject is what a logs view reads: one pod's containers, or the pods a selector matches (a
// workload's), each line prefixed like kubectl logs --prefix when there is more than one container.
type logSubject struct {
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

// tailLines is how many of a container's last lines the view starts with (Options.LogTail, else 200).
func (v *LogView) tailLines() int64 {
	if n := v.app.opts.LogTail; n > 0 {
		return int64(n)
	}
	return logTailLines
}

// prefixed tells whether the lines carry a [pod/NAME/CONTAINER] prefix.
func (s logSubject) prefixed() bool { return s.selector != "" || len(s.containers) > 1 }

// NewLogView returns the logs view of s; nothing is read until it is shown.
func NewLogView(a *App, s logSubject) *LogView {
	capacity := a.opts.LogLines
	if capacity <= 0 {
		capacity = defaultLogLines
	}
	v := &LogView{app: a, logs: s, ring: logs.NewRing(capacity), sink: logs.NewSink(capacity),
		run: map[string]context.CancelFunc{}, state: map[string]logs.State{}}
	v.pane = newLogPane(v.ring)
	v.pane.fg = a.theme.LogFg
	for _, o := range []struct {
		set *bool
		to  *bool
	}{{a.opts.LogWrap, &v.pane.wrap}, {a.opts.LogTimestamps, &v.pane.timestamps}, {a.opts.LogFollow, &v.pane.follow}} {
		if o.set != nil {
			*o.to = *o.set
		}
	}
	v.pane.scrolled = v.render
	return v
}

func (v *LogView) Crumb() string {
	if v.logs.previous {
		return "logs -p " + v.logs.name
	}
	return "logs " + v.logs.name
}

func (v *LogView) Primitive() tview.Primitive { return v.pane }

// Bindings are the logs view's keys.
func (v *LogView) Bindings() []Binding {
	return []Binding{
		v.app.HelpBinding(),
		Keys.Logs.Search.Bind(v.openSearchBar),
		Keys.Logs.NextMatch.Bind(func() { v.nextMatch(true) }),
		Keys.Logs.PrevMatch.Bind(func() { v.nextMatch(false) }),
		Keys.Logs.Follow.Bind(v.toggleFollow),
		Keys.Logs.Timestamps.Bind(v.toggleTimestamps),
		Keys.Logs.Wrap.Bind(v.toggleWrap),
		Keys.Logs.Copy.Bind(v.copyVisible),
		Keys.Logs.Save.Bind(v.save),
		v.app.QuitBinding(),
	}
}

func (v *LogView) Activate() {
	if v.stop == nil {
		v.start()
	}
	v.render()
}

// start begins reading: the containers of the one pod, or the pods of the selector as they come and go.
func (v *LogView) start() {
	v.ctx, v.stop = context.WithCancel(v.app.ctx)
	v.app.goSafe(v.loop)
	if v.logs.selector == "" {
		for _, c := range v.logs.containers {
			v.follow(v.logs.pod, c)
		}
		return
	}
	pods, err := newLogPods(v)
	if err != nil {
		v.app.errorf("logs of %s: %s", v.logs.name, err)
		return
	}
	v.pods = pods
}

func (v *LogView) Close() {
	if v.stop != nil {
		v.stop()
	}
	if v.pods != nil {
		v.pods.close()
	}
}

// follow starts reading one container's log.
func (v *LogView) follow(pod, container string) {
	key := pod + "/" + container
	if _, ok := v.run[key]; ok {
		return
	}
	ctx, cancel := context.WithCancel(v.ctx)
	v.run[key] = cancel
	cluster, ns := v.app.cluster, v.logs.namespace
	f := &logs.Follower{
		Key:   key,
		Req:   LogRequest{Namespace: ns, Pod: pod, Container: container, Previous: v.logs.previous, Follow: !v.logs.previous, TailLines: v.tailLines()},
		Open:  cluster.Logs,
		Sink:  v.sink,
		Clock: v.app.opts.Clock,
		Ended: func(ctx context.Context, _ error) (bool, string) {
			return logs.ContainerEnded(ctx, cluster, ns, pod, container)
		},
	}
	if v.logs.prefixed() {
		f.Prefix = fmt.Sprintf("[pod/%s/%s] ", pod, container)
	}
	v.app.goSafe(func() { f.Run(ctx) })
}

// unfollow stops reading the containers of pod (it was deleted).
func (v *LogView) unfollow(pod string) {
	for key, cancel := range v.run {
		if strings.HasPrefix(key, pod+"/") {
			cancel()
			delete(v.run, key)
			v.sink.Forget(key)
		}
	}
}

// loop takes what the followers read to the UI goroutine, at most once per Options.MinRedraw.
func (v *LogView) loop() {
	ctx := v.ctx
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.sink.Notify():
		}
		if !v.app.SpaceRedraw(ctx, &last) {
			return
		}
		v.app.tv.QueueUpdateDraw(func() {
			if ctx.Err() == nil {
				v.pull()
			}
		})
	}
}

// pull moves the sink's lines into the ring and redraws.
func (v *LogView) pull() {
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

// render sets the title and the status line.
func (v *LogView) render() {
	s := v.logs
	th := v.app.theme
	title := fmt.Sprintf(" %slogs%s %s/%s", th.Title, th.Counter, tview.Escape(s.kind), tview.Escape(s.name))
	if s.namespace != "" {
		title = fmt.Sprintf(" %slogs%s %s %s/%s", th.Title, th.Counter, tview.Escape(s.kind), tview.Escape(s.namespace), tview.Escape(s.name))
	}
	if s.selector == "" && len(s.containers) == 1 {
		title += " [gray]" + tview.Escape(s.containers[0])
	}
	if s.previous {
		title += " [yellow](previous)"
	}
	title += th.Counter + " "
	if v.search != "" {
		title += fmt.Sprintf("%s</%s> %s[-::-] ", th.filter, tview.Escape(v.search), v.matchCount())
	}
	v.pane.SetTitle(title + v.stateText())
	v.app.updateStatus(v)
}

// stateText is the followers' states, one per line of trouble ("" when all stream normally).
func (v *LogView) stateText() string {
	keys := make([]string, 0, len(v.state))
	for k := range v.state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		st := v.state[k]
		colour := "[gray]"
		if st.Error {
			colour = "[red]"
		}
		who := k
		if !v.logs.prefixed() {
			who = ""
		} else {
			who += ": "
		}
		parts = append(parts, colour+tview.Escape(who+st.Text)+"[-]")
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + " "
}

func (v *LogView) matchCount() string {
	if v.ring.Hits() == 0 {
		return "0 lines"
	}
	if v.pane.focus >= v.ring.Dropped() {
		return fmt.Sprintf("%d/%d", v.ring.HitRank(v.pane.focus), v.ring.Hits())
	}
	return fmt.Sprintf("%d lines", v.ring.Hits())
}

// Status says how the view follows and what it keeps.
func (v *LogView) Status() string {
	on := v.app.theme.On
	text := fmt.Sprintf("follow %s (s)  timestamps %s (t)  wrap %s (w)  %d of %d lines kept",
		on(v.pane.follow), on(v.pane.timestamps), on(v.pane.wrap), v.ring.Len(), v.ring.Capacity())
	if n := v.ring.Dropped(); n > 0 {
		text += fmt.Sprintf(", [yellow]%d older dropped[-]", n)
	}
	text += fmt.Sprintf(" (%s of %s)", strings.TrimSuffix(mebibytes(v.ring.Size()), " MiB"), mebibytes(v.ring.Budget()))
	if !v.pane.follow {
		if behind := v.ring.Next() - 1 - v.pane.top; behind > int64(v.pane.height) {
			text += "  [yellow]paused: G or s to follow[-]"
		}
	}
	return text
}

// mebibytes is n bytes for the logs view's status line: "0.3 MiB", "16 MiB".
func mebibytes(n int) string {
	const mib = 1 << 20
	if n%mib == 0 || n >= 10*mib {
		return fmt.Sprintf("%d MiB", (n+mib/2)/mib)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/mib)
}

// Escape ends the search.
func (v *LogView) Escape() bool {
	if v.search == "" {
		return false
	}
	v.setSearch("")
	return true
}

func (v *LogView) openSearchBar() { v.app.bar.Open("/", v.search, v.setSearch, nil) }

// setSearch marks the lines matching text (a regular expression, case-insensitive unless it has capitals)
// and shows the first match from the top of the screen.
func (v *LogView) setSearch(text string) {
	if text == "" {
		v.search, v.pane.focus = "", -1
		v.ring.SetSearch(nil, v.pane.timestamps)
		v.render()
		return
	}
	re, err := compileSearch(text)
	if err != nil {
		v.app.errorf("%s", err.Error())
		return
	}
	v.search = text
	v.ring.SetSearch(re, v.pane.timestamps)
	v.pane.focus = -1
	if seq, ok := v.ring.NextHit(v.pane.top-1, true); ok {
		v.pane.show(seq)
	} else {
		v.app.errorf("%q not found in the %d lines kept", text, v.ring.Len())
	}
	v.render()
}

// compileSearch compiles a search: case-insensitive unless it has an upper-case letter (smart case).
func compileSearch(text string) (*regexp.Regexp, error) {
	expr := text
	if !strings.ContainsFunc(text, unicode.IsUpper) {
		expr = "(?i)" + text
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("not a regular expression: %q (%s)", text, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

func (v *LogView) nextMatch(forward bool) {
	if v.search == "" {
		return
	}
	from := v.pane.focus
	if from < v.ring.Dropped() {
		from = v.pane.top - 1
	}
	if seq, ok := v.ring.NextHit(from, forward); ok {
		v.pane.show(seq)
	}
	v.render()
}

func (v *LogView) toggleFollow() {
	v.pane.follow = !v.pane.follow
	v.render()
}

func (v *LogView) toggleTimestamps() {
	v.pane.timestamps = !v.pane.timestamps
	if v.ring.Search() != nil {
		v.ring.SetSearch(v.ring.Search(), v.pane.timestamps)
	}
	v.render()
}

func (v *LogView) toggleWrap() {
	v.pane.wrap = !v.pane.wrap
	v.pane.topRow = 0
	v.render()
}

// save writes the lines kept, as shown (timestamps per the toggle), to a new file in Options.SaveDir.
func (v *LogView) save() {
	var b strings.Builder
	for seq := v.ring.Dropped(); seq < v.ring.Next(); seq++ {
		l, _ := v.ring.At(seq)
		b.WriteString(l.Display(v.pane.timestamps))
		b.WriteByte('\n')
	}
	name := fmt.Sprintf("%s-%s-%s.log", v.logs.namespace, v.logs.name, v.app.opts.Clock.Now().Format("20060102-150405"))
	path, err := v.app.saveFile("logs", strings.TrimPrefix(name, "-"), []byte(b.String()))
	if err != nil {
		v.app.errorf("save the logs: %s", err)
		return
	}
	v.app.message(fmt.Sprintf("saved %d lines to %s", v.ring.Len(), path))
}

// saveFile writes data to a new file name under Options.SaveDir/kind (created as needed, private to the
// user) and returns its path.
func (a *App) saveFile(kind, name string, data []byte) (string, error) {
	dir := filepath.Join(a.opts.SaveDir, kind)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	name = strings.NewReplacer("/", "_", string(os.PathSeparator), "_").Replace(name)
	ext := filepath.Ext(name)
	var f *os.File
	var path string
	for n := 1; f == nil; n++ { // a new file: name, else name-2, name-3 …
		path = filepath.Join(dir, name)
		if n > 1 {
			path = filepath.Join(dir, fmt.Sprintf("%s-%d%s", strings.TrimSuffix(name, ext), n, ext))
		}
		var err error
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil && (!errors.Is(err, fs.ErrExist) || n >= 1000) {
			return "", err
		}
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return "", err
	}
	return path, f.Close()
}

// copyVisible copies the lines on screen, as shown (timestamps per the toggle).
func (v *LogView) copyVisible() {
	var b strings.Builder
	for seq := v.pane.drawnFrom; seq < v.pane.drawnTo; seq++ {
		if l, ok := v.ring.At(seq); ok {
			b.WriteString(l.Display(v.pane.timestamps))
			b.WriteByte('\n')
		}
	}
	v.app.copyToClipboard("the lines on screen", b.String())
}
