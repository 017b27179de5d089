package logs

import "sync"

// Sink gathers what the followers of one view read, for the UI goroutine to take: the lines in order of
// arrival (at most limit and ByteBudget bytes of them waiting: older ones are counted as dropped, the ring
// would drop them anyway) and each follower's state. Safe for concurrent use.
type Sink struct {
	mu       sync.Mutex
	limit    int
	maxBytes int
	lines    []Line
	bytes    int // the size of lines
	dropped  int64
	states   map[string]State
	changed  bool
	notify   chan struct{} // capacity 1: something is waiting
}

// State is one follower's state line (none while it streams normally).
type State struct {
	Text string
	// Error tells whether the state is a failure (else a note, such as "reconnected at 10:04:12").
	Error bool
}

// NewSink returns an empty sink that keeps at most limit lines (at least 1) waiting.
func NewSink(limit int) *Sink {
	return &Sink{limit: max(limit, 1), maxBytes: ByteBudget, states: map[string]State{}, notify: make(chan struct{}, 1)}
}

// Notify receives a value when lines or states are waiting to be taken (one value for any number of them).
func (s *Sink) Notify() <-chan struct{} { return s.notify }

func (s *Sink) signal() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// add queues lines.
func (s *Sink) add(lines []Line) {
	if len(lines) == 0 {
		return
	}
	s.mu.Lock()
	s.lines = append(s.lines, lines...)
	for _, l := range lines {
		s.bytes += l.Size()
	}
	over := 0
	for over < len(s.lines)-1 && (len(s.lines)-over > s.limit || s.bytes > s.maxBytes) {
		s.bytes -= s.lines[over].Size()
		over++
	}
	if over > 0 {
		s.dropped += int64(over)
		s.lines = append(s.lines[:0:0], s.lines[over:]...)
	}
	s.mu.Unlock()
	s.signal()
}

// SetState records the state of the follower key ("" removes it).
func (s *Sink) SetState(key, text string, isError bool) {
	s.mu.Lock()
	old, had := s.states[key]
	if text == "" {
		delete(s.states, key)
	} else {
		s.states[key] = State{Text: text, Error: isError}
	}
	s.changed = s.changed || had != (text != "") || old.Text != text
	s.mu.Unlock()
	s.signal()
}

// Forget removes the state of the follower key (the follower was stopped).
func (s *Sink) Forget(key string) { s.SetState(key, "", false) }

// Take returns the lines queued since the last call, how many were dropped before they could be taken,
// and, when any state changed, a copy of the states (else nil).
func (s *Sink) Take() (lines []Line, dropped int64, states map[string]State) {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines, dropped = s.lines, s.dropped
	s.lines, s.dropped, s.bytes = nil, 0, 0
	if s.changed {
		states = make(map[string]State, len(s.states))
		for k, v := range s.states {
			states[k] = v
		}
		s.changed = false
	}
	return lines, dropped, states
}
