package logview

import (
	"context"
	"sort"
	"strings"
	"time"

	"kscope/logs"
)

// setRange reads every log followed again, from what r says (the time range keys): the lines kept go, the
// filter and the search stay, and the view follows the end.
func (v *View) setRange(r logs.Range) {
	v.span = r
	if !v.life.Started() { // not started: Activate reads with r
		v.render()
		return
	}
	keys := make([]string, 0, len(v.run))
	for key, cancel := range v.run {
		cancel()
		keys = append(keys, key)
	}
	sort.Strings(keys)
	v.stopRead()
	ring := logs.NewRing(v.ring.Capacity())
	ring.SetFilter(v.ring.Filter(), v.pane.timestamps)
	ring.SetSearch(v.ring.Search(), v.pane.timestamps)
	v.ring, v.pane.ring = ring, ring
	v.sink = logs.NewSink(ring.Capacity())
	v.run, v.state = map[string]context.CancelFunc{}, map[string]logs.State{}
	v.pane.top, v.pane.topRow, v.pane.focus, v.pane.follow = 0, 0, -1, true
	v.startReading()
	for _, key := range keys {
		pod, container, _ := strings.Cut(key, "/")
		v.follow(pod, container)
	}
	v.render()
}

// rangeSince is the action of a time range key: the lines of the last d.
func (v *View) rangeSince(d time.Duration) func() { return func() { v.setRange(logs.RangeSince(d)) } }
