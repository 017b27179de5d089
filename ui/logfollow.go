package ui

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"k8s.io/utils/clock"

	"kscope/apierr"
)

// maxLogLine bounds one line's length; the rest of a longer line is cut, and the cut is said on the line.
const maxLogLine = 1 << 20

// logFollower reads one container's log into a logSink: with timestamps (so that the view can show or hide
// them and a reconnect can skip what was already read), reconnecting with backoff when a followed stream
// ends or fails, until its context ends. run blocks; it is the only goroutine that uses the follower.
type logFollower struct {
	key    string // names the follower in the sink's states: "pod/container"
	req    LogRequest
	prefix string
	open   func(ctx context.Context, req LogRequest) (io.ReadCloser, error)
	// ended, when set, is asked after a followed stream ended (err is nil at EOF): stop tells the
	// follower to give up, why says so to the user.
	ended func(ctx context.Context, err error) (stop bool, why string)
	sink  *logSink
	clock clock.Clock
	// maxBackoff bounds the wait between reconnects (default 30 s).
	maxBackoff time.Duration
}

// run reads until ctx ends, or the log is read (not following), or ended says to stop.
func (f *logFollower) run(ctx context.Context) {
	var last time.Time // the timestamp of the last line read, and how many lines had it
	atLast := 0
	backoff := time.Second
	for attempt := 0; ctx.Err() == nil; attempt++ {
		req := f.req
		req.Timestamps = true
		if !last.IsZero() {
			req.TailLines, req.Since = 0, last
		}
		rc, err := f.open(ctx, req)
		read := 0
		if err == nil {
			if attempt > 0 {
				f.sink.setState(f.key, "reconnected at "+f.clock.Now().Format("15:04:05"), false)
			} else {
				f.sink.setState(f.key, "", false)
			}
			skipUntil, skipEqual := last, atLast
			read, err = f.read(rc, func(l logLine) bool {
				if !skipUntil.IsZero() && !l.at.IsZero() {
					if l.at.Before(skipUntil) || (l.at.Equal(skipUntil) && skipEqual > 0) {
						if l.at.Equal(skipUntil) {
							skipEqual--
						}
						return false
					}
					skipUntil = time.Time{}
				}
				if l.at.Equal(last) {
					atLast++
				} else if !l.at.IsZero() {
					last, atLast = l.at, 1
				}
				return true
			})
			_ = rc.Close()
		}
		if ctx.Err() != nil {
			return
		}
		if !f.req.Follow {
			if err != nil {
				f.sink.setState(f.key, oneLineError(err), true)
			}
			return
		}
		if f.ended != nil {
			if stop, why := f.ended(ctx, err); stop {
				f.sink.setState(f.key, why, err != nil)
				return
			}
		}
		if read > 0 {
			backoff = time.Second
		}
		why := "stream ended"
		if err != nil {
			why = oneLineError(err)
		}
		f.sink.setState(f.key, fmt.Sprintf("%s; reconnecting in %s", why, backoff), err != nil)
		select {
		case <-ctx.Done():
			return
		case <-f.clock.After(backoff):
		}
		backoff = min(backoff*2, cmp.Or(f.maxBackoff, 30*time.Second))
	}
}

func oneLineError(err error) string { return apierr.OneLine(err.Error()) }

// read hands each line of rc that keep accepts to the sink, in batches (a batch ends when no more input is
// buffered). It returns the lines accepted and the read error (nil at EOF).
func (f *logFollower) read(rc io.Reader, keep func(logLine) bool) (int, error) {
	br := bufio.NewReaderSize(rc, 64<<10)
	var batch []logLine
	n := 0
	for {
		raw, err := readLogLine(br)
		if raw != "" || err == nil {
			l := parseLogLine(raw)
			l.prefix = f.prefix
			if keep(l) {
				batch = append(batch, l)
				n++
			}
		}
		if err != nil || br.Buffered() == 0 || len(batch) >= 4096 {
			f.sink.add(batch)
			batch = nil
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// readLogLine reads one line without its newline, at most maxLogLine bytes of it: the rest is skipped and
// the line ends in a note saying so.
func readLogLine(br *bufio.Reader) (string, error) {
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long) < maxLogLine {
				long = append(long, chunk[:min(len(chunk), maxLogLine-len(long))]...)
			}
			continue
		}
		line := chunk
		if long != nil {
			if len(long) < maxLogLine {
				long = append(long, chunk[:min(len(chunk), maxLogLine-len(long))]...)
			}
			line = long
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
		if long != nil && len(long) >= maxLogLine {
			text += fmt.Sprintf(" …[kscope: line cut at %d bytes]", maxLogLine)
		}
		return text, err
	}
}

// parseLogLine splits "TIMESTAMP TEXT", as the kubelet writes a line with timestamps, into its parts; a
// line without a timestamp is all text.
func parseLogLine(raw string) logLine {
	stamp, text, ok := strings.Cut(raw, " ")
	if !ok {
		stamp, text = raw, ""
	}
	at, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return logLine{text: raw}
	}
	return logLine{at: at, stamp: stamp, text: text}
}

// logSink gathers what the followers of one view read, for the UI goroutine to take: the lines in order
// of arrival (at most limit and maxBytes of them waiting: older ones are counted as dropped, the ring would
// drop them anyway) and each follower's state. Safe for concurrent use.
type logSink struct {
	mu       sync.Mutex
	limit    int
	maxBytes int
	lines    []logLine
	bytes    int // the size of lines
	dropped  int64
	states   map[string]logState
	changed  bool
	notify   chan struct{} // capacity 1: something is waiting
}

// logState is one follower's state line ("" while streaming normally).
type logState struct {
	text  string
	error bool
}

func newLogSink(limit int) *logSink {
	return &logSink{limit: max(limit, 1), maxBytes: logBytes, states: map[string]logState{}, notify: make(chan struct{}, 1)}
}

func (s *logSink) signal() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// add queues lines.
func (s *logSink) add(lines []logLine) {
	if len(lines) == 0 {
		return
	}
	s.mu.Lock()
	s.lines = append(s.lines, lines...)
	for _, l := range lines {
		s.bytes += l.size()
	}
	over := 0
	for over < len(s.lines)-1 && (len(s.lines)-over > s.limit || s.bytes > s.maxBytes) {
		s.bytes -= s.lines[over].size()
		over++
	}
	if over > 0 {
		s.dropped += int64(over)
		s.lines = append(s.lines[:0:0], s.lines[over:]...)
	}
	s.mu.Unlock()
	s.signal()
}

// setState records a follower's state ("" removes it).
func (s *logSink) setState(key, text string, isError bool) {
	s.mu.Lock()
	old, had := s.states[key]
	if text == "" {
		delete(s.states, key)
	} else {
		s.states[key] = logState{text: text, error: isError}
	}
	s.changed = s.changed || had != (text != "") || old.text != text
	s.mu.Unlock()
	s.signal()
}

// forget removes a follower's state (the follower was stopped).
func (s *logSink) forget(key string) { s.setState(key, "", false) }

// take returns the lines queued since the last call, how many were dropped before they could be taken,
// and, when any state changed, a copy of the states.
func (s *logSink) take() (lines []logLine, dropped int64, states map[string]logState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines, dropped = s.lines, s.dropped
	s.lines, s.dropped, s.bytes = nil, 0, 0
	if s.changed {
		states = make(map[string]logState, len(s.states))
		for k, v := range s.states {
			states[k] = v
		}
		s.changed = false
	}
	return lines, dropped, states
}
