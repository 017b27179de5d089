package watch

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/rest"
)

// The server's API Priority and Fairness rejects a request it has no room for with 429 Too Many Requests, most
// often with Retry-After: N (seconds). client-go's REST client honours it on its own: it waits N seconds and
// sends the request again, up to ten times, before the reflector sees an error, so a big LIST rejected under
// load is never retried in a tight loop. What it does not do is say so: the view stayed "listing" with no
// reason. busyWatch is told of each answer of a Source's requests (busyTransport) and keeps the note the
// status line shows meanwhile, "server busy, retrying in N s", until an answer that is not a 429 comes.

// busyTransport is an http.RoundTripper that tells busy of each 429 answer (with the Retry-After it carries,
// 0 when none) and calm of every other answer that is not an error. Safe for concurrent use as its callbacks
// are.
type busyTransport struct {
	rt   http.RoundTripper
	busy func(retryAfter time.Duration)
	calm func()
}

// RoundTrip implements http.RoundTripper.
func (b busyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := b.rt.RoundTrip(req)
	switch {
	case err != nil:
	case resp.StatusCode == http.StatusTooManyRequests:
		b.busy(retryAfter(resp.Header.Get("Retry-After")))
	case resp.StatusCode < http.StatusBadRequest:
		b.calm()
	}
	return resp, err
}

// retryAfter reads a Retry-After header in seconds as the API server sends it (0: absent or not seconds).
func retryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}

// busyNote is the note of a source the server keeps answering 429: when it said to come back, if it did.
func busyNote(retryAfter time.Duration) string {
	if retryAfter <= 0 {
		return "server busy (429 Too Many Requests), retrying"
	}
	return fmt.Sprintf("server busy, retrying in %d s", int(retryAfter/time.Second))
}

// busyState is a source's "server busy" note, set and cleared by its requests' answers. Safe for concurrent
// use; changed (if not nil) is called after each change, without the lock.
type busyState struct {
	mu      sync.Mutex
	note    string
	changed func()
}

// set records a 429 answer.
func (b *busyState) set(retryAfter time.Duration) { b.put(busyNote(retryAfter)) }

// clear records an answer that was not a 429.
func (b *busyState) clear() { b.put("") }

func (b *busyState) put(note string) {
	b.mu.Lock()
	same := b.note == note
	b.note = note
	b.mu.Unlock()
	if !same && b.changed != nil {
		b.changed()
	}
}

// get is the note now ("" while the server answers).
func (b *busyState) get() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.note
}

// observeBusy returns a copy of cfg whose requests' answers are told to b (busyTransport, over the transport
// cfg already has: the connection it shares with the cluster's other clients stays shared).
func observeBusy(cfg *rest.Config, b *busyState) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return busyTransport{rt: rt, busy: b.set, calm: b.clear}
	})
	return c
}
