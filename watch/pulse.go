package watch

import (
	"errors"
	"io"
	"net/url"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/clock"

	"kscope/apierr"
)

// pulseWindow is the span events per second are counted over.
const pulseWindow = 10 * time.Second

// pulseCauses is how many relist and reconnect causes a Pulse keeps (the newest).
const pulseCauses = 5

// Pulse is what one Source's informer has done, for a user telling a quiet resource from a stuck watch: its
// lists (the first and every relist), its watch requests, the events they delivered and why the watch was
// re-established. It is a plain value, a copy taken by Source.Pulse.
type Pulse struct {
	// Started is when the source started; zero before Start.
	Started time.Time
	// Rows is the number of rows the source holds.
	Rows int
	// ResourceVersion is the newest resourceVersion seen, from a list or an event ("" before any).
	ResourceVersion string
	// FirstList and LastList describe the first completed list and the latest one (equal until a relist).
	FirstList, LastList ListStat
	// Lists counts completed lists (the first included); FailedLists the list requests that failed.
	Lists, FailedLists int
	// FillBytes is what the metadata fills of a one-namespace view read (0 for other views), and
	// FillJoinedPages how many of their pages came as rows without objects joined to a protobuf list of the
	// objects' metadata (see ListStat.JoinedPages).
	FillBytes       int64
	FillJoinedPages int
	// Relists counts the lists after the first; RelistCauses the newest causes, oldest first.
	Relists      int
	RelistCauses []Cause
	// Watching tells whether a watch request is open; WatchSince is when it was opened.
	Watching   bool
	WatchSince time.Time
	// Watches counts watch requests the server accepted; Reconnects those after the first, with the newest
	// causes (what ended the watch before), oldest first.
	Watches, Reconnects int
	ReconnectCauses     []Cause
	// Events counts the ADDED, MODIFIED and DELETED events received; Bookmarks the BOOKMARK events.
	Events, Bookmarks int64
	// RecentEvents is the number of events in the last 10 s (PulseWindow) before Now.
	RecentEvents int
	// LastEvent is when the latest event arrived (zero before any).
	LastEvent time.Time
	// Now is the moment the figures were taken at.
	Now time.Time
}

// PulseWindow is the span Pulse.RecentEvents counts.
const PulseWindow = pulseWindow

// EventsPerSecond is the mean rate of events over the last PulseWindow.
func (p Pulse) EventsPerSecond() float64 { return float64(p.RecentEvents) / pulseWindow.Seconds() }

// ListStat is one list request (paged or not) from its first request to its last byte.
type ListStat struct {
	At       time.Time
	Duration time.Duration
	// Bytes is the size of the response bodies as read (all pages).
	Bytes int64
	Rows  int
	// Metadata tells whether rows came with their object metadata (false: includeObject=None, filled behind).
	Metadata bool
	// JoinedPages counts the pages whose rows came as a Table without objects joined to a protobuf list of
	// the objects' metadata (all-namespaces views); the list's other pages were Tables with metadata.
	JoinedPages int
}

// Cause is why the informer listed or watched again: when, and the error or event that made it.
type Cause struct {
	At     time.Time
	Reason string
}

// pulseRecorder gathers a Pulse from the list-watch's requests (reflector and fill goroutines) and the
// watch decoder. Safe for concurrent use; a nil recorder records nothing.
type pulseRecorder struct {
	clock clock.PassiveClock

	mu      sync.Mutex
	p       Pulse
	pending string // the cause of the next list or watch: why the previous watch ended ("" for none)
	// buckets count events per second over the window: buckets[i] holds the second seconds[i].
	buckets [10]int
	seconds [10]int64
}

func newPulseRecorder(clk clock.PassiveClock) *pulseRecorder {
	if clk == nil {
		clk = clock.RealClock{}
	}
	return &pulseRecorder{clock: clk}
}

// started records Start.
func (r *pulseRecorder) started() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p.Started = r.clock.Now()
}

// listDone records the list st, which began at st.At (its Duration is set here). A list after the first
// completed one is a relist, caused by what ended the watch before it.
func (r *pulseRecorder) listDone(st ListStat, rv string, err error) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.p.FailedLists++
		r.setPendingLocked(err)
		return
	}
	begin := st.At
	st.Duration = r.clock.Since(begin)
	if r.p.Lists == 0 {
		r.p.FirstList = st
	} else {
		r.p.Relists++
		r.p.RelistCauses = addCause(r.p.RelistCauses, Cause{At: begin, Reason: r.causeLocked()})
	}
	r.p.Lists++
	r.p.LastList = st // the cause stays pending: the watch that follows is re-established for it too
	if rv != "" {
		r.p.ResourceVersion = rv
	}
}

// fillRead adds n bytes read by a metadata fill.
func (r *pulseRecorder) fillRead(n int64) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p.FillBytes += n
}

// fillJoined counts a page of a metadata fill that was joined.
func (r *pulseRecorder) fillJoined() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p.FillJoinedPages++
}

// watchOpened records a watch request the server accepted; one after the first is a reconnect.
func (r *pulseRecorder) watchOpened() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clock.Now()
	if r.p.Watches > 0 {
		r.p.Reconnects++
		r.p.ReconnectCauses = addCause(r.p.ReconnectCauses, Cause{At: now, Reason: r.causeLocked()})
	}
	r.p.Watches++
	r.p.Watching, r.p.WatchSince = true, now
	r.pending = ""
}

// watchEnded records the end of the open watch (err nil: the server closed it, as it does after its
// timeout) or a watch request that failed.
func (r *pulseRecorder) watchEnded(err error) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.p.Watching = false
	if err == nil {
		if r.pending == "" {
			r.pending = "the server ended the watch"
		}
		return
	}
	r.setPendingLocked(err)
}

// setPendingLocked keeps err as the cause of the next list or watch; the caller holds r.mu.
func (r *pulseRecorder) setPendingLocked(err error) { r.pending = causeOf(err) }

// causeOf says what err was in a few words: the server's message for an API error, the network's for a
// request that never reached the server (without the request's method and URL).
func causeOf(err error) string {
	var status apierrors.APIStatus
	var urlErr *url.Error
	switch {
	case errors.As(err, &status):
		return apierr.OneLine(apierr.Message(err))
	case errors.As(err, &urlErr):
		return apierr.OneLine(urlErr.Err.Error())
	}
	return apierr.OneLine(err.Error())
}

// causeLocked returns the pending cause, or a plain one; the caller holds r.mu.
func (r *pulseRecorder) causeLocked() string {
	if r.pending == "" {
		return "the watch ended"
	}
	return r.pending
}

// event records one event of the open watch; bookmark tells a BOOKMARK from the others.
func (r *pulseRecorder) event(rv string, bookmark bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if rv != "" {
		r.p.ResourceVersion = rv
	}
	if bookmark {
		r.p.Bookmarks++
		return
	}
	now := r.clock.Now()
	r.p.Events++
	r.p.LastEvent = now
	sec := now.Unix()
	i := int(sec % int64(len(r.buckets)))
	if r.seconds[i] != sec {
		r.seconds[i], r.buckets[i] = sec, 0
	}
	r.buckets[i]++
}

// pulse returns the figures now, with rows as the row count.
func (r *pulseRecorder) pulse(rows int) Pulse {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.p
	p.Rows, p.Now = rows, r.clock.Now()
	p.RelistCauses = append([]Cause(nil), p.RelistCauses...)
	p.ReconnectCauses = append([]Cause(nil), p.ReconnectCauses...)
	now := p.Now.Unix()
	for i, sec := range r.seconds {
		if sec > now-int64(len(r.seconds)) && sec <= now {
			p.RecentEvents += r.buckets[i]
		}
	}
	return p
}

// addCause appends c, keeping the newest pulseCauses.
func addCause(causes []Cause, c Cause) []Cause {
	causes = append(causes, c)
	if len(causes) > pulseCauses {
		causes = append(causes[:0:0], causes[len(causes)-pulseCauses:]...)
	}
	return causes
}

// countReads returns r, passing the size of each read to count when count is set.
func countReads(r io.Reader, count func(int64)) io.Reader {
	if count == nil {
		return r
	}
	return &countingReader{r: r, count: count}
}

// countingReader passes the size of each read to count.
type countingReader struct {
	r     io.Reader
	count func(int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.count(int64(n))
	}
	return n, err
}
