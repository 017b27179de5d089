package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// floodLog is an endless-looking log of n lines of ~100 bytes with increasing timestamps, generated as it
// is read (it holds nothing itself).
type floodLog struct {
	n, i int
	buf  []byte
}

func (f *floodLog) Read(p []byte) (int, error) {
	for len(f.buf) < len(p) && f.i < f.n {
		f.i++
		at := t0.Add(time.Duration(f.i) * time.Microsecond).UTC().Format(time.RFC3339Nano)
		f.buf = fmt.Appendf(f.buf, "%s level=info msg=\"flood\" seq=%09d padding=%s\n", at, f.i, "................................................")
	}
	if len(f.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

// TestLogFollowerMemoryStaysBounded reads a 32 MB log through a follower into a sink that nobody takes
// from (a UI that cannot keep up): the sink keeps at most its limit of lines, and the heap stays near what
// those lines take, not the stream's size.
func TestLogFollowerMemoryStaysBounded(t *testing.T) {
	const lines, limit = 320_000, 5000 // ~100 bytes a line
	sink := newLogSink(limit)
	f := &logFollower{key: "p/c", sink: sink, clock: clocktesting.NewFakeClock(t0),
		req: LogRequest{Namespace: "ns", Pod: "p", Container: "c"},
		open: func(context.Context, LogRequest) (io.ReadCloser, error) {
			return io.NopCloser(&floodLog{n: lines}), nil
		}}
	var peak uint64
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.run(context.Background())
	}()
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-time.After(20 * time.Millisecond):
		}
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
	}
	got, dropped, _ := sink.take()
	if len(got) != limit || dropped != lines-limit {
		t.Fatalf("sink kept %d lines and dropped %d, want %d and %d", len(got), dropped, limit, lines-limit)
	}
	if want := fmt.Sprintf("seq=%09d", lines); !strings.Contains(got[len(got)-1].text, want) {
		t.Fatalf("last line %q, want the stream's last (%s)", got[len(got)-1].text, want)
	}
	t.Logf("32 MB read, peak heap after GC %.1f MB", float64(peak)/1e6)
	if peak > 32<<20 {
		t.Fatalf("peak heap %d MB while reading a 32 MB log into a %d-line sink", peak>>20, limit)
	}
}

// TestLogFollowerStopsWhenTold: a followed stream that fails is retried after the backoff; once ended says
// to stop (the pod is gone), the follower stops and its state says why.
func TestLogFollowerStopsWhenTold(t *testing.T) {
	clk := clocktesting.NewFakeClock(t0)
	sink := newLogSink(10)
	opened := 0
	f := &logFollower{key: "p/c", sink: sink, clock: clk, req: LogRequest{Follow: true},
		open: func(context.Context, LogRequest) (io.ReadCloser, error) {
			opened++
			return nil, errors.New("container \"c\" in pod \"p\" is waiting to start: ContainerCreating")
		},
		ended: func(_ context.Context, err error) (bool, string) { return opened >= 2, "pod deleted" }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.run(context.Background())
	}()
	for !clk.HasWaiters() {
		time.Sleep(time.Millisecond)
	}
	if _, _, states := sink.take(); states["p/c"].text != "container \"c\" in pod \"p\" is waiting to start: ContainerCreating; reconnecting in 1s" {
		t.Fatalf("state while waiting: %+v", states)
	}
	clk.Step(time.Second)
	<-done
	if _, _, states := sink.take(); states["p/c"].text != "pod deleted" || opened != 2 {
		t.Fatalf("after the second attempt: opened %d, states %+v", opened, states)
	}
}
