package pulse

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/ui/livetable"
	"kscope/ui/screenlife"
	"kscope/watch"
)

// View shows the informers of a table as they work (`i`): the lists (duration, bytes, rows), the
// resourceVersion, the watch's state and uptime, events per second over the last 10 s, relists and
// reconnects with their causes, the last event. It reads the figures again every second on the UI goroutine.
type View struct {
	ui.BaseScreen
	nav   ui.Navigator
	label string
	src   cluster.RowSource
	text  *tview.TextView
	life  screenlife.Life // the tick
}

// New returns the pulse of src, the rows of the table labelled label (Spec's key opens it).
func New(nav ui.Navigator, label string, src cluster.RowSource) ui.Screen {
	v := &View{nav: nav, label: label, src: src,
		text: tview.NewTextView().SetDynamicColors(true).SetWrap(false)}
	v.text.SetBorder(true).SetTitle(" [aqua::b]pulse[white] " + tview.Escape(label) + " ")
	return v
}

func (v *View) Crumb() string              { return "pulse" }
func (v *View) Primitive() tview.Primitive { return v.text }

// Bindings: help and quit; the figures need no keys.
func (v *View) Bindings() []keymap.Binding {
	return []keymap.Binding{v.nav.HelpBinding(), v.nav.QuitBinding()}
}

// Activate draws the figures and reads them again every second until the view closes.
func (v *View) Activate() {
	v.render()
	v.life.Start(v.nav, func(context.Context) { v.life.Tick(v, v.render) })
}

// Close stops the reads.
func (v *View) Close() { v.life.Stop() }

// Status says how many informers the view shows.
func (v *View) Status() string {
	return fmt.Sprintf("%d informer(s); figures read every second", len(livetable.PulsesOf(v.label, v.src)))
}

func (v *View) render() {
	pulses := livetable.PulsesOf(v.label, v.src)
	if len(pulses) == 0 {
		v.text.SetText("[yellow]this table has no informer of its own (a fixed list of rows)[-]")
		return
	}
	var b strings.Builder
	for i, ip := range pulses {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(pulseText(ip.Label, ip.Pulse))
	}
	v.text.SetText(b.String())
}

// pulseText is one informer's figures as the pulse view shows them (tview colour tags).
func pulseText(label string, p watch.Pulse) string {
	var b strings.Builder
	line := func(name, format string, args ...any) {
		fmt.Fprintf(&b, "[aqua]%-16s[-] %s\n", name, fmt.Sprintf(format, args...))
	}
	fmt.Fprintf(&b, "[::b]%s[::-]\n", tview.Escape(label))
	switch {
	case p.Started.IsZero():
		line("watch", "[yellow]not started[-]")
	case p.Watching:
		line("watch", "[green]open[-] for %s (since %s), %d request(s)", pulseDuration(p.Now.Sub(p.WatchSince)), clockTime(p.WatchSince), p.Watches)
	case p.Lists == 0:
		line("watch", "[yellow]listing[-] for %s", pulseDuration(p.Now.Sub(p.Started)))
	default:
		line("watch", "[yellow]not open[-] (reconnecting)")
	}
	line("uptime", "%s (since %s)", pulseDuration(p.Now.Sub(p.Started)), clockTime(p.Started))
	line("rows", "%d", p.Rows)
	line("resourceVersion", "%s", orNone(p.ResourceVersion))
	line("first LIST", "%s", listText(p.FirstList, p.Lists > 0))
	if p.Lists > 1 {
		line("last LIST", "%s", listText(p.LastList, true))
	}
	if p.FillBytes > 0 {
		line("metadata fill", "%s read (the labels and UIDs of rows listed without objects; %d page(s) joined)",
			bytesText(p.FillBytes), p.FillJoinedPages)
	}
	line("lists", "%d (%d failed)", p.Lists, p.FailedLists)
	last := "none yet"
	if !p.LastEvent.IsZero() {
		last = fmt.Sprintf("%s ago (%s)", pulseDuration(p.Now.Sub(p.LastEvent)), clockTime(p.LastEvent))
	}
	line("events", "%.1f/s over the last %s · %d in all · %d bookmarks", p.EventsPerSecond(),
		pulseDuration(watch.PulseWindow), p.Events, p.Bookmarks)
	line("last event", "%s", last)
	line("relists", "%s", causesText(p.Relists, p.RelistCauses))
	line("reconnects", "%s", causesText(p.Reconnects, p.ReconnectCauses))
	return b.String()
}

// listText describes one list request ("not yet" before done is true).
func listText(l watch.ListStat, done bool) string {
	if !done {
		return "not yet"
	}
	how := "with object metadata"
	switch {
	case !l.Metadata:
		how = "without objects (metadata filled behind)"
	case l.JoinedPages > 0:
		how = fmt.Sprintf("with object metadata (%d page(s) as rows without objects + a protobuf metadata list)", l.JoinedPages)
	}
	return fmt.Sprintf("%s, %s, %d rows, %s, at %s", pulseDuration(l.Duration), bytesText(l.Bytes), l.Rows, how, clockTime(l.At))
}

// causesText is a count and the newest causes, newest first, one per line under it (indented to the values).
func causesText(n int, causes []watch.Cause) string {
	text := strconv.Itoa(n)
	if n > len(causes) && len(causes) > 0 {
		text += fmt.Sprintf(" (the last %d below)", len(causes))
	}
	for i := len(causes) - 1; i >= 0; i-- {
		text += fmt.Sprintf("\n%-16s %s %s", "", clockTime(causes[i].At), tview.Escape(causes[i].Reason))
	}
	return text
}

// pulseDuration rounds d for reading: milliseconds under a second, then seconds and minutes.
func pulseDuration(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// bytesText prints n bytes in KiB or MiB with the exact count.
func bytesText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB (%d bytes)", float64(n)/(1<<20), n)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB (%d bytes)", float64(n)/(1<<10), n)
	}
	return fmt.Sprintf("%d bytes", n)
}

func clockTime(t time.Time) string { return t.Local().Format("15:04:05") }

func orNone(s string) string {
	if s == "" {
		return "none yet"
	}
	return tview.Escape(s)
}
