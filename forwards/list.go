package forwards

import (
	"context"
	"time"
)

// Forward is one port-forward the user started. Its fields are set by Add and not changed afterwards; how
// it stands changes through its List. UI goroutine only.
type Forward struct {
	// Local is where it listens (127.0.0.1:8080); Target what it reaches (shop/web-abc:8080, service
	// shop/web:80).
	Local, Target string
	// Since is when it started.
	Since time.Time

	ended  bool
	why    string // "" when the user (or a context switch) stopped it
	status Status
	stop   context.CancelFunc
}

// Ended tells whether the forward is over.
func (f *Forward) Ended() bool { return f.ended }

// InGap tells whether the forward lost its pod and has not reached the next yet.
func (f *Forward) InGap() bool {
	return !f.ended && (f.status.Phase == Reconnecting || f.status.Phase == Waiting)
}

// State is the STATE column: how it stands as its Forwarder last reported (forwarding to a pod, reconnecting,
// waiting for a pod; "active" before any report), stopped, or why it ended.
func (f *Forward) State() string {
	switch {
	case !f.ended:
		return f.status.String()
	case f.why == "":
		return "stopped"
	}
	return "ended: " + f.why
}

// Moves is the MOVES column: how many times the forward went on to another pod.
func (f *Forward) Moves() int { return f.status.Moves }

// Follows is the FOLLOWS column: what the forward follows for its whole life, as its Forwarder last reported
// it ("pods of deployment web (uid 3f2a9c1e…)"; "" before any report).
func (f *Forward) Follows() string { return f.status.Follows }

// List is the forwards of a session, in the order they started, and who wants to know when they change.
// The zero value is an empty list. UI goroutine only: its watchers run on the goroutine that changed it.
type List struct {
	items    []*Forward
	watchers map[int]func()
	next     int
}

// Add records a forward from local to target that started at since; stop ends it (its port is freed).
func (l *List) Add(local, target string, since time.Time, stop context.CancelFunc) *Forward {
	f := &Forward{Local: local, Target: target, Since: since, stop: stop}
	l.items = append(l.items, f)
	l.changed()
	return f
}

// End marks f as over for why ("" = stopped) and tells whether it was running until now: a forward ends
// once, and a forward already stopped is not said to end again.
func (l *List) End(f *Forward, why string) bool {
	if f.ended {
		return false
	}
	f.ended, f.why = true, why
	l.changed()
	return true
}

// Report records how f stands now (its Forwarder's Status); a forward over keeps how it ended.
func (l *List) Report(f *Forward, st Status) {
	if f.ended || st == f.status {
		return
	}
	f.status = st
	l.changed()
}

// Stop stops f and removes it from the list.
func (l *List) Stop(f *Forward) {
	f.stop()
	f.ended = true
	for i, g := range l.items {
		if g == f {
			l.items = append(l.items[:i], l.items[i+1:]...)
			break
		}
	}
	l.changed()
}

// StopAll stops every forward and empties the list (kscope quits, or the context switches: they reach the
// old cluster).
func (l *List) StopAll() {
	for _, f := range l.items {
		f.stop()
		f.ended = true
	}
	l.items = nil
	l.changed()
}

// Items returns the forwards, oldest first. The slice is the caller's; the forwards are the list's.
func (l *List) Items() []*Forward { return append([]*Forward(nil), l.items...) }

// Active counts the forwards not over.
func (l *List) Active() int {
	n := 0
	for _, f := range l.items {
		if !f.ended {
			n++
		}
	}
	return n
}

// Watch calls fn after every change of the list until the returned cancel is called.
func (l *List) Watch(fn func()) (cancel func()) {
	if l.watchers == nil {
		l.watchers = map[int]func(){}
	}
	id := l.next
	l.next++
	l.watchers[id] = fn
	return func() { delete(l.watchers, id) }
}

// changed tells the watchers.
func (l *List) changed() {
	for _, fn := range l.watchers {
		fn()
	}
}
