package logs

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"k8s.io/utils/clock"

	"kscope/apierr"
	"kscope/cluster"
)

// Follower reads one container's log into a Sink: with timestamps (so that the view can show or hide them
// and a reconnect can skip what was already read), reconnecting with backoff when a followed stream ends or
// fails, until its context ends. Set its fields, then call Run, which blocks; Run's goroutine is the only
// one that uses the follower (Open and Ended are called on it).
type Follower struct {
	// Key names the follower in the sink's states: "pod/container".
	Key string
	// Req is the log to read. Req.Timestamps is set by Run; after a reconnect Run asks for the lines since
	// the last one read instead of Req.TailLines or Req.SinceSeconds.
	Req cluster.LogRequest
	// Prefix is put before each line read (Line.Prefix).
	Prefix string
	// Open opens a log stream (cluster.Streams.Logs).
	Open func(ctx context.Context, req cluster.LogRequest) (io.ReadCloser, error)
	// Ended, when set, is asked after a followed stream ended (err is nil at EOF): stop tells the follower
	// to give up, why says so to the user. ContainerEnded is one.
	Ended func(ctx context.Context, err error) (stop bool, why string)
	// Sink receives the lines read and the follower's state.
	Sink *Sink
	// Clock times the reconnects.
	Clock clock.Clock
	// MaxBackoff bounds the wait between reconnects (default 30 s).
	MaxBackoff time.Duration
}

// Run reads until ctx ends, or the log is read (Req.Follow unset), or Ended says to stop.
func (f *Follower) Run(ctx context.Context) {
	var last time.Time // the timestamp of the last line read, and how many lines had it
	atLast := 0
	backoff := time.Second
	for attempt := 0; ctx.Err() == nil; attempt++ {
		req := f.Req
		req.Timestamps = true
		if !last.IsZero() {
			req.TailLines, req.SinceSeconds, req.Since = 0, 0, last
		}
		rc, err := f.Open(ctx, req)
		read := 0
		if err == nil {
			if attempt > 0 {
				f.Sink.SetState(f.Key, "reconnected at "+f.Clock.Now().Format("15:04:05"), false)
			} else {
				f.Sink.SetState(f.Key, "", false)
			}
			skipUntil, skipEqual := last, atLast
			read, err = f.read(rc, func(l Line) bool {
				if !skipUntil.IsZero() && !l.At.IsZero() {
					if l.At.Before(skipUntil) || (l.At.Equal(skipUntil) && skipEqual > 0) {
						if l.At.Equal(skipUntil) {
							skipEqual--
						}
						return false
					}
					skipUntil = time.Time{}
				}
				if l.At.Equal(last) {
					atLast++
				} else if !l.At.IsZero() {
					last, atLast = l.At, 1
				}
				return true
			})
			_ = rc.Close()
		}
		if ctx.Err() != nil {
			return
		}
		if !f.Req.Follow {
			if err != nil {
				f.Sink.SetState(f.Key, oneLineError(err), true)
			}
			return
		}
		if f.Ended != nil {
			if stop, why := f.Ended(ctx, err); stop {
				f.Sink.SetState(f.Key, why, err != nil)
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
		f.Sink.SetState(f.Key, fmt.Sprintf("%s; reconnecting in %s", why, backoff), err != nil)
		select {
		case <-ctx.Done():
			return
		case <-f.Clock.After(backoff):
		}
		backoff = min(backoff*2, cmp.Or(f.MaxBackoff, 30*time.Second))
	}
}

func oneLineError(err error) string { return apierr.OneLine(err.Error()) }

// read hands each line of rc that keep accepts to the sink, in batches (a batch ends when no more input is
// buffered). It returns the lines accepted and the read error (nil at EOF).
func (f *Follower) read(rc io.Reader, keep func(Line) bool) (int, error) {
	br := bufio.NewReaderSize(rc, 64<<10)
	var batch []Line
	n := 0
	for {
		raw, err := readLine(br)
		if raw != "" || err == nil {
			l := parseLine(raw)
			l.Prefix = f.Prefix
			if keep(l) {
				batch = append(batch, l)
				n++
			}
		}
		if err != nil || br.Buffered() == 0 || len(batch) >= 4096 {
			f.Sink.add(batch)
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
