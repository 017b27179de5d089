package ui

import (
	"fmt"
	"regexp"
	"time"
)

// logLine is one line of a log as the logs view keeps it.
type logLine struct {
	// at is the kubelet's timestamp of the line (zero when it had none); stamp is that timestamp as the
	// server wrote it, shown with the timestamps toggle.
	at    time.Time
	stamp string
	// prefix is "[pod/NAME/CONTAINER] " for the lines of a workload's pods (kubectl logs --prefix), else "".
	prefix string
	// text is the line without its timestamp and newline.
	text string
	// hit tells whether the line matches the view's search (set by the ring).
	hit bool
}

// display is the line as shown and saved: prefix, then the timestamp when asked for, then the text, as
// kubectl logs --prefix [--timestamps] prints it.
func (l logLine) display(timestamps bool) string {
	if timestamps && l.stamp != "" {
		return l.prefix + l.stamp + " " + l.text
	}
	return l.prefix + l.text
}

// logBytes bounds the memory of the lines a logs view keeps (the ring), and again of those waiting for it (the
// sink): lines may be up to maxLogLine long, so a count alone (Options.LogLines) could hold gigabytes.
const logBytes = 16 << 20

// logLineOverhead is what a kept line costs besides its text: the logLine itself and its strings' headers.
const logLineOverhead = 96

// size is the memory l takes, as the byte budgets count it.
func (l logLine) size() int { return len(l.text) + len(l.stamp) + len(l.prefix) + logLineOverhead }

// logRing keeps the last lines of a log: at most capacity of them and at most maxBytes of them (by size; the
// newest line is kept whatever its size), the oldest dropped first. Each line has a sequence number (0 for
// the first line ever pushed), so a position stays valid while older lines are dropped. It also keeps which
// lines match a search. Not safe for concurrent use (the UI goroutine owns it).
type logRing struct {
	buf      []logLine // circular, grown up to capacity; n lines from start
	capacity int
	maxBytes int
	start    int   // index in buf of the oldest line
	n        int   // lines kept
	bytes    int   // their size
	first    int64 // sequence number of the oldest line
	hits     int   // lines with hit set
	search   *regexp.Regexp
	// timestamps is what the search matches against (the lines as shown).
	timestamps bool
}

// newLogRing returns an empty ring of capacity lines (at least 1) and logBytes.
func newLogRing(capacity int) *logRing {
	return &logRing{capacity: max(capacity, 1), maxBytes: logBytes}
}

// len is the number of lines kept.
func (r *logRing) len() int { return r.n }

// size is the memory the lines kept take, as the budget counts it.
func (r *logRing) size() int { return r.bytes }

// dropped is the number of lines dropped because the ring was full.
func (r *logRing) dropped() int64 { return r.first }

// next is the sequence number the next pushed line gets.
func (r *logRing) next() int64 { return r.first + int64(r.n) }

// slot is the index in buf of the i-th line kept (0: the oldest).
func (r *logRing) slot(i int) int { return (r.start + i) % len(r.buf) }

// at returns the line with sequence number seq; ok is false when it was dropped or not pushed yet.
func (r *logRing) at(seq int64) (l logLine, ok bool) {
	if seq < r.first || seq >= r.next() {
		return logLine{}, false
	}
	return r.buf[r.slot(int(seq-r.first))], true
}

// push appends lines, dropping the oldest beyond capacity or beyond maxBytes.
func (r *logRing) push(lines ...logLine) {
	for _, l := range lines {
		l.hit = r.matches(l)
		if l.hit {
			r.hits++
		}
		if r.n == r.capacity {
			r.dropOldest()
		}
		if r.n == len(r.buf) {
			r.grow()
		}
		r.buf[r.slot(r.n)] = l
		r.n++
		r.bytes += l.size()
		for r.bytes > r.maxBytes && r.n > 1 {
			r.dropOldest()
		}
	}
}

// grow makes room for more lines (up to capacity), the oldest first again.
func (r *logRing) grow() {
	buf := make([]logLine, min(max(2*len(r.buf), 64), r.capacity))
	for i := 0; i < r.n; i++ {
		buf[i] = r.buf[r.slot(i)]
	}
	r.buf, r.start = buf, 0
}

// dropOldest drops the oldest line kept, releasing its text.
func (r *logRing) dropOldest() {
	i := r.start
	if r.buf[i].hit {
		r.hits--
	}
	r.bytes -= r.buf[i].size()
	r.buf[i] = logLine{}
	r.start = (i + 1) % len(r.buf)
	r.n--
	r.first++
}

// clear drops every line (the sequence numbers go on).
func (r *logRing) clear() {
	r.first, r.buf, r.start, r.n, r.bytes, r.hits = r.next(), nil, 0, 0, 0, 0
}

// lose counts n more lines as dropped that never reached the ring (the sink dropped them). The sink drops
// lines only when more than the ring's capacity or budget waited, so every line kept now would be dropped too.
func (r *logRing) lose(n int64) {
	r.clear()
	r.first += n
}

// matches tells whether l, as shown, matches the search.
func (r *logRing) matches(l logLine) bool {
	return r.search != nil && r.search.MatchString(l.display(r.timestamps))
}

// setSearch marks the lines matching re (nil: no search), matched against the lines as shown with or
// without their timestamps.
func (r *logRing) setSearch(re *regexp.Regexp, timestamps bool) {
	r.search, r.timestamps, r.hits = re, timestamps, 0
	for i := 0; i < r.n; i++ {
		l := &r.buf[r.slot(i)]
		l.hit = r.matches(*l)
		if l.hit {
			r.hits++
		}
	}
}

// nextHit returns the first matching line after seq (forward) or before it (backward), wrapping around;
// ok is false when no line matches.
func (r *logRing) nextHit(seq int64, forward bool) (int64, bool) {
	n := int64(r.n)
	if r.hits == 0 || n == 0 {
		return 0, false
	}
	step := int64(1)
	if !forward {
		step = -1
	}
	pos := min(max(seq-r.first, -1), n)
	for i := int64(0); i < n; i++ {
		pos = ((pos+step)%n + n) % n
		if l, _ := r.at(r.first + pos); l.hit {
			return r.first + pos, true
		}
	}
	return 0, false
}

// hitRank returns how many matching lines there are up to and including seq (1 for the first match).
func (r *logRing) hitRank(seq int64) int {
	rank := 0
	for s := r.first; s <= seq && s < r.next(); s++ {
		if l, _ := r.at(s); l.hit {
			rank++
		}
	}
	return rank
}

// mebibytes is n bytes for the logs view's status line: "0.3 MiB", "16 MiB".
func mebibytes(n int) string {
	const mib = 1 << 20
	if n%mib == 0 || n >= 10*mib {
		return fmt.Sprintf("%d MiB", (n+mib/2)/mib)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/mib)
}
