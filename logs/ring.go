package logs

import "regexp"

// Ring keeps the last lines of a log: at most Capacity of them and at most Budget bytes of them (by Size;
// the newest line is kept whatever its size), the oldest dropped first. Each line has a sequence number (0
// for the first line ever pushed), so a position stays valid while older lines are dropped. It also keeps
// which lines match a search, and which a filter hides. A Ring is not safe for concurrent use: one goroutine (the UI's) owns it.
type Ring struct {
	buf      []Line // circular, grown up to capacity; n lines from start
	capacity int
	maxBytes int
	start    int   // index in buf of the oldest line
	n        int   // lines kept
	bytes    int   // their size
	first    int64 // sequence number of the oldest line
	hits     int   // lines with Hit set
	shown    int   // lines without Hidden set
	search   *regexp.Regexp
	filter   *Filter
	// timestamps is what the search and the filter match against (the lines as shown).
	timestamps bool
}

// NewRing returns an empty ring of capacity lines (at least 1) and ByteBudget bytes.
func NewRing(capacity int) *Ring {
	return &Ring{capacity: max(capacity, 1), maxBytes: ByteBudget}
}

// Len is the number of lines kept.
func (r *Ring) Len() int { return r.n }

// Capacity is the number of lines the ring keeps at most.
func (r *Ring) Capacity() int { return r.capacity }

// Size is the memory the lines kept take, as the budget counts it.
func (r *Ring) Size() int { return r.bytes }

// Budget is the memory the lines kept may take (ByteBudget).
func (r *Ring) Budget() int { return r.maxBytes }

// Dropped is the number of lines dropped because the ring was full; it is also the sequence number of the
// oldest line kept.
func (r *Ring) Dropped() int64 { return r.first }

// Next is the sequence number the next pushed line gets.
func (r *Ring) Next() int64 { return r.first + int64(r.n) }

// slot is the index in buf of the i-th line kept (0: the oldest).
func (r *Ring) slot(i int) int { return (r.start + i) % len(r.buf) }

// At returns the line with sequence number seq; ok is false when it was dropped or not pushed yet.
func (r *Ring) At(seq int64) (l Line, ok bool) {
	if seq < r.first || seq >= r.Next() {
		return Line{}, false
	}
	return r.buf[r.slot(int(seq-r.first))], true
}

// Push appends lines, dropping the oldest beyond the capacity or beyond the budget. It sets each line's
// Hidden and Hit.
func (r *Ring) Push(lines ...Line) {
	for _, l := range lines {
		r.mark(&l)
		if r.n == r.capacity {
			r.dropOldest()
		}
		if r.n == len(r.buf) {
			r.grow()
		}
		r.buf[r.slot(r.n)] = l
		r.n++
		r.bytes += l.Size()
		for r.bytes > r.maxBytes && r.n > 1 {
			r.dropOldest()
		}
	}
}

// grow makes room for more lines (up to capacity), the oldest first again.
func (r *Ring) grow() {
	buf := make([]Line, min(max(2*len(r.buf), 64), r.capacity))
	for i := 0; i < r.n; i++ {
		buf[i] = r.buf[r.slot(i)]
	}
	r.buf, r.start = buf, 0
}

// dropOldest drops the oldest line kept, releasing its text.
func (r *Ring) dropOldest() {
	i := r.start
	if r.buf[i].Hit {
		r.hits--
	}
	if !r.buf[i].Hidden {
		r.shown--
	}
	r.bytes -= r.buf[i].Size()
	r.buf[i] = Line{}
	r.start = (i + 1) % len(r.buf)
	r.n--
	r.first++
}

// Clear drops every line (the sequence numbers go on).
func (r *Ring) Clear() {
	r.first, r.buf, r.start, r.n, r.bytes, r.hits, r.shown = r.Next(), nil, 0, 0, 0, 0, 0
}

// Lose counts n more lines as dropped that never reached the ring (the Sink dropped them). The sink drops
// lines only when more than the ring's capacity or budget waited, so every line kept now would be dropped too.
func (r *Ring) Lose(n int64) {
	r.Clear()
	r.first += n
}

// mark sets l's Hidden (the filter) and Hit (the search, on the lines shown), and counts them.
func (r *Ring) mark(l *Line) {
	if r.filter == nil && r.search == nil {
		l.Hidden, l.Hit = false, false
	} else {
		s := l.Display(r.timestamps)
		l.Hidden = !r.filter.Keep(s)
		l.Hit = !l.Hidden && r.search != nil && r.search.MatchString(s)
	}
	if l.Hit {
		r.hits++
	}
	if !l.Hidden {
		r.shown++
	}
}

// remark marks every line kept again (the search, the filter or the timestamps changed).
func (r *Ring) remark() {
	r.hits, r.shown = 0, 0
	for i := 0; i < r.n; i++ {
		r.mark(&r.buf[r.slot(i)])
	}
}

// Search is the search the lines are matched against (nil: none).
func (r *Ring) Search() *regexp.Regexp { return r.search }

// Hits is the number of lines kept and shown that match the search.
func (r *Ring) Hits() int { return r.hits }

// SetSearch marks the lines matching re (nil: no search), matched against the lines as shown with or
// without their timestamps; lines the filter hides never match.
func (r *Ring) SetSearch(re *regexp.Regexp, timestamps bool) {
	r.search, r.timestamps = re, timestamps
	r.remark()
}

// Filter is the filter that hides lines (nil: none).
func (r *Ring) Filter() *Filter { return r.filter }

// SetFilter hides the lines kept, and those pushed from now on, that f does not keep (nil: shows them all),
// matched against the lines as shown with or without their timestamps; the search's marks follow.
func (r *Ring) SetFilter(f *Filter, timestamps bool) {
	r.filter, r.timestamps = f, timestamps
	r.remark()
}

// Shown is the number of lines kept that the filter does not hide (Len without a filter).
func (r *Ring) Shown() int { return r.shown }

// NextShown returns the first line the filter does not hide at or after seq; ok is false when there is none.
func (r *Ring) NextShown(seq int64) (int64, bool) {
	for seq = max(seq, r.first); seq < r.Next(); seq++ {
		if l, _ := r.At(seq); !l.Hidden {
			return seq, true
		}
	}
	return 0, false
}

// PrevShown returns the last line the filter does not hide at or before seq; ok is false when there is none.
func (r *Ring) PrevShown(seq int64) (int64, bool) {
	for seq = min(seq, r.Next()-1); seq >= r.first; seq-- {
		if l, _ := r.At(seq); !l.Hidden {
			return seq, true
		}
	}
	return 0, false
}

// NextHit returns the first matching line after seq (forward) or before it (backward), wrapping around;
// ok is false when no line matches.
func (r *Ring) NextHit(seq int64, forward bool) (int64, bool) {
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
		if l, _ := r.At(r.first + pos); l.Hit {
			return r.first + pos, true
		}
	}
	return 0, false
}

// HitRank returns how many matching lines there are up to and including seq (1 for the first match).
func (r *Ring) HitRank(seq int64) int {
	rank := 0
	for s := r.first; s <= seq && s < r.Next(); s++ {
		if l, _ := r.At(s); l.Hit {
			rank++
		}
	}
	return rank
}
