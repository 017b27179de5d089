package ui

import (
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

// logRing keeps the last lines of a log: at most capacity of them, the oldest dropped first. Each line has
// a sequence number (0 for the first line ever pushed), so a position stays valid while older lines are
// dropped. It also keeps which lines match a search. Not safe for concurrent use (the UI goroutine owns it).
type logRing struct {
	lines    []logLine
	capacity int
	start    int   // index in lines of the oldest line
	first    int64 // sequence number of the oldest line
	hits     int   // lines with hit set
	search   *regexp.Regexp
	// timestamps is what the search matches against (the lines as shown).
	timestamps bool
}

// newLogRing returns an empty ring of capacity lines (at least 1).
func newLogRing(capacity int) *logRing {
	return &logRing{capacity: max(capacity, 1)}
}

// len is the number of lines kept.
func (r *logRing) len() int { return len(r.lines) }

// dropped is the number of lines dropped because the ring was full.
func (r *logRing) dropped() int64 { return r.first }

// next is the sequence number the next pushed line gets.
func (r *logRing) next() int64 { return r.first + int64(len(r.lines)) }

// at returns the line with sequence number seq; ok is false when it was dropped or not pushed yet.
func (r *logRing) at(seq int64) (l logLine, ok bool) {
	if seq < r.first || seq >= r.next() {
		return logLine{}, false
	}
	return r.lines[(r.start+int(seq-r.first))%len(r.lines)], true
}

// push appends lines, dropping the oldest beyond capacity.
func (r *logRing) push(lines ...logLine) {
	for _, l := range lines {
		l.hit = r.matches(l)
		if l.hit {
			r.hits++
		}
		if len(r.lines) < r.capacity {
			r.lines = append(r.lines, l)
			continue
		}
		if r.lines[r.start].hit {
			r.hits--
		}
		r.lines[r.start] = l
		r.start = (r.start + 1) % len(r.lines)
		r.first++
	}
}

// clear drops every line (the sequence numbers go on).
func (r *logRing) clear() {
	r.first, r.lines, r.start, r.hits = r.next(), nil, 0, 0
}

// lose counts n more lines as dropped that never reached the ring (the sink dropped them). The sink drops
// lines only when more than the ring's capacity waited, so every line kept now would be dropped too.
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
	for i := range r.lines {
		r.lines[i].hit = r.matches(r.lines[i])
		if r.lines[i].hit {
			r.hits++
		}
	}
}

// nextHit returns the first matching line after seq (forward) or before it (backward), wrapping around;
// ok is false when no line matches.
func (r *logRing) nextHit(seq int64, forward bool) (int64, bool) {
	n := int64(len(r.lines))
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
