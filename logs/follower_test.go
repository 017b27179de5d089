package logs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"kscope/cluster"
)

// t0 is the tests' clock's start.
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

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

// TestFollowerMemoryStaysBounded reads a 32 MB log through a follower into a sink that nobody takes
// from (a UI that cannot keep up): the sink keeps at most its limit of lines, and the heap stays near what
// those lines take, not the stream's size.
func TestFollowerMemoryStaysBounded(t *testing.T) {
	const lines, limit = 320_000, 5000 // ~100 bytes a line
	sink := NewSink(limit)
	f := &Follower{Key: "p/c", Sink: sink, Clock: clocktesting.NewFakeClock(t0),
		Req: cluster.LogRequest{Namespace: "ns", Pod: "p", Container: "c"},
		Open: func(context.Context, cluster.LogRequest) (io.ReadCloser, error) {
			return io.NopCloser(&floodLog{n: lines}), nil
		}}
	peak := peakHeapWhile(f)
	got, dropped, _ := sink.Take()
	if len(got) != limit || dropped != lines-limit {
		t.Fatalf("sink kept %d lines and dropped %d, want %d and %d", len(got), dropped, limit, lines-limit)
	}
	if want := fmt.Sprintf("seq=%09d", lines); !strings.Contains(got[len(got)-1].Text, want) {
		t.Fatalf("last line %q, want the stream's last (%s)", got[len(got)-1].Text, want)
	}
	t.Logf("32 MB read, peak heap after GC %.1f MB over the heap before", float64(peak)/1e6)
	if peak > 32<<20 {
		t.Fatalf("peak heap %d MB while reading a 32 MB log into a %d-line sink", peak>>20, limit)
	}
}

// heapNow is the heap after a collection.
func heapNow() int64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// peakHeapWhile runs f until its stream ends and returns the peak of the heap after GC over the heap before.
func peakHeapWhile(f *Follower) int64 {
	before := heapNow()
	var peak int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.Run(context.Background())
	}()
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-time.After(20 * time.Millisecond):
		}
		peak = max(peak, heapNow()-before)
	}
	return peak
}

// longLines is a log of n lines of size bytes each (the follower's longest), generated as it is read.
type longLines struct {
	n, size int
	buf     []byte
}

func (l *longLines) Read(p []byte) (int, error) {
	if len(l.buf) == 0 && l.n > 0 {
		l.n--
		l.buf = append(bytes.Repeat([]byte{'x'}, l.size-1), '\n')
	}
	if len(l.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

// TestSinkKeepsItsByteBudget: lines of up to maxLine wait in the sink within ByteBudget, whatever its
// line limit (5000 such lines would be 5 GB); the newest are kept, the others counted as dropped; what the
// sink holds on the heap once a 64 MB stream of them is read is the budget.
func TestSinkKeepsItsByteBudget(t *testing.T) {
	const lines, size = 128, maxLine / 2
	sink := NewSink(5000)
	f := &Follower{Key: "p/c", Sink: sink, Clock: clocktesting.NewFakeClock(t0),
		Req: cluster.LogRequest{Namespace: "ns", Pod: "p", Container: "c"},
		Open: func(context.Context, cluster.LogRequest) (io.ReadCloser, error) {
			return io.NopCloser(&longLines{n: lines, size: size}), nil
		}}
	before := heapNow()
	f.Run(context.Background())
	held := heapNow() - before
	got, dropped, _ := sink.Take()
	kept := 0
	for _, l := range got {
		kept += l.Size()
	}
	t.Logf("%d lines of %d bytes read: %d kept (%d bytes), %d dropped; the sink holds %.1f MB on the heap",
		lines, size, len(got), kept, dropped, float64(held)/1e6)
	if kept > ByteBudget || len(got) == 0 || int64(len(got))+dropped != lines {
		t.Fatalf("sink kept %d lines of %d bytes (budget %d) and dropped %d, of %d", len(got), kept, ByteBudget, dropped, lines)
	}
	if held > ByteBudget+2*maxLine {
		t.Fatalf("the sink holds %d MB on the heap after %d MB of long lines, its budget is %d MB", held>>20, lines*size>>20, ByteBudget>>20)
	}
}

// TestFollowerStopsWhenTold: a followed stream that fails is retried after the backoff; once ended says
// to stop (the pod is gone), the follower stops and its state says why.
func TestFollowerStopsWhenTold(t *testing.T) {
	clk := clocktesting.NewFakeClock(t0)
	sink := NewSink(10)
	opened := 0
	f := &Follower{Key: "p/c", Sink: sink, Clock: clk, Req: cluster.LogRequest{Follow: true},
		Open: func(context.Context, cluster.LogRequest) (io.ReadCloser, error) {
			opened++
			return nil, errors.New("container \"c\" in pod \"p\" is waiting to start: ContainerCreating")
		},
		Ended: func(_ context.Context, err error) (bool, string) { return opened >= 2, "pod deleted" }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.Run(context.Background())
	}()
	for !clk.HasWaiters() {
		time.Sleep(time.Millisecond)
	}
	if _, _, states := sink.Take(); states["p/c"].Text != "container \"c\" in pod \"p\" is waiting to start: ContainerCreating; reconnecting in 1s" {
		t.Fatalf("state while waiting: %+v", states)
	}
	clk.Step(time.Second)
	<-done
	if _, _, states := sink.Take(); states["p/c"].Text != "pod deleted" || opened != 2 {
		t.Fatalf("after the second attempt: opened %d, states %+v", opened, states)
	}
}
