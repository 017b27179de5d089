package logview

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"

	"kscope/cluster"
)

// fakeLogs holds each container's log lines ("TIMESTAMP TEXT", as the kubelet stores them) and serves them
// as pods/log does: tail, since, with or without timestamps, and followed streams that get the lines
// appended later until the test ends them.
type fakeLogs struct {
	mu        sync.Mutex
	lines     map[string][]string // by "ns/pod/container"
	followers map[string][]*io.PipeWriter
	requests  []cluster.LogRequest
	err       map[string]error // answers a container's next request, then is cleared
}

func logKey(ns, pod, container string) string { return ns + "/" + pod + "/" + container }

// Logs serves req from the lines stored for its container.
func (c *fakeCluster) Logs(ctx context.Context, req cluster.LogRequest) (io.ReadCloser, error) {
	f := &c.logs
	key := logKey(req.Namespace, req.Pod, req.Container)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, req)
	if err := f.err[key]; err != nil {
		delete(f.err, key)
		return nil, err
	}
	var out []string
	for _, l := range f.lines[key] {
		stamp, _, _ := strings.Cut(l, " ")
		at, _ := time.Parse(time.RFC3339Nano, stamp)
		if !req.Since.IsZero() && at.Before(req.Since.Truncate(time.Second)) {
			continue
		}
		if req.SinceSeconds > 0 && at.Before(t0.Add(-time.Duration(req.SinceSeconds)*time.Second)) { // t0: the node's now
			continue
		}
		out = append(out, l)
	}
	if req.TailLines > 0 && int64(len(out)) > req.TailLines {
		out = out[int64(len(out))-req.TailLines:]
	}
	text := ""
	for _, l := range out {
		text += servedLine(l, req.Timestamps) + "\n"
	}
	if !req.Follow {
		return io.NopCloser(strings.NewReader(text)), nil
	}
	r, w := io.Pipe()
	if f.followers == nil {
		f.followers = map[string][]*io.PipeWriter{}
	}
	f.followers[key] = append(f.followers[key], w)
	go func() {
		_, _ = io.WriteString(w, text)
		<-ctx.Done()
		_ = w.CloseWithError(ctx.Err())
	}()
	return r, nil
}

func servedLine(l string, timestamps bool) string {
	if timestamps {
		return l
	}
	_, text, _ := strings.Cut(l, " ")
	return text
}

// addLog appends a line at `at` to a container's log, and to its followed streams.
func (c *fakeCluster) addLog(ns, pod, container string, at time.Time, text string) {
	f := &c.logs
	key := logKey(ns, pod, container)
	line := at.UTC().Format(time.RFC3339Nano) + " " + text
	f.mu.Lock()
	if f.lines == nil {
		f.lines = map[string][]string{}
	}
	f.lines[key] = append(f.lines[key], line)
	followers := append([]*io.PipeWriter(nil), f.followers[key]...)
	f.mu.Unlock()
	for _, w := range followers {
		_, _ = io.WriteString(w, line+"\n")
	}
}

// endStreams ends the followed streams of a container (the server closed them).
func (c *fakeCluster) endStreams(ns, pod, container string) {
	f := &c.logs
	key := logKey(ns, pod, container)
	f.mu.Lock()
	followers := f.followers[key]
	delete(f.followers, key)
	f.mu.Unlock()
	for _, w := range followers {
		_ = w.Close()
	}
}

// logRequests returns the requests so far.
func (c *fakeCluster) logRequests() []cluster.LogRequest {
	f := &c.logs
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]cluster.LogRequest(nil), f.requests...)
}

// failLogs makes a container's next log request fail with err.
func (c *fakeCluster) failLogs(ns, pod, container string, err error) {
	f := &c.logs
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = map[string]error{}
	}
	f.err[logKey(ns, pod, container)] = err
}
