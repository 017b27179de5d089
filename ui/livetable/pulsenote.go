package livetable

import (
	"fmt"
	"time"

	"kscope/cluster"
	"kscope/watch"
)

// partedSource is a row source made of others (one per namespace of `:pods a,b`), each with its label.
type partedSource interface {
	PartSources() (labels []string, parts []cluster.RowSource)
}

// InformerPulse is one informer's figures and what it watches (Label: the table, and the part of it, it
// feeds). A plain value.
type InformerPulse struct {
	Label string
	Pulse watch.Pulse
}

// PulsesOf returns the figures of every informer behind src, labelled with label (and their parts' labels);
// none for a source without an informer of its own (a fixed list). Safe for any goroutine.
func PulsesOf(label string, src cluster.RowSource) []InformerPulse {
	switch s := src.(type) {
	case cluster.Pulser:
		return []InformerPulse{{Label: label, Pulse: s.Pulse()}}
	case partedSource:
		labels, parts := s.PartSources()
		var out []InformerPulse
		for i, part := range parts {
			out = append(out, PulsesOf(label+" in "+labels[i], part)...)
		}
		return out
	}
	return nil
}

// pulseNote is the status line's compact pulse of src ("" for a source without an informer): the event
// rate over the last 10 s, else when the last event came, and the relists and reconnects when there were any.
func pulseNote(src cluster.RowSource) string {
	pulses := PulsesOf("", src)
	if len(pulses) == 0 {
		return ""
	}
	var recent, relists, reconnects int
	var lastEvent time.Time
	for _, ip := range pulses {
		p := ip.Pulse
		recent += p.RecentEvents
		relists += p.Relists
		reconnects += p.Reconnects
		if p.LastEvent.After(lastEvent) {
			lastEvent = p.LastEvent
		}
	}
	text := "pulse "
	switch {
	case recent > 0:
		text += fmt.Sprintf("%.1f ev/s", float64(recent)/watch.PulseWindow.Seconds())
	case !lastEvent.IsZero():
		text += "quiet since " + lastEvent.Local().Format("15:04:05")
	default:
		text += "no events yet"
	}
	if relists > 0 {
		text += fmt.Sprintf(" · %d relist(s)", relists)
	}
	if reconnects > 0 {
		text += fmt.Sprintf(" · %d reconnect(s)", reconnects)
	}
	return text
}
