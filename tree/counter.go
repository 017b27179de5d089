package tree

import (
	"io"
	"net/http"
	"sync/atomic"
)

// Counter counts the requests a client sends and the response bytes it reads. Safe for concurrent use.
type Counter struct {
	requests, bytes atomic.Int64
}

// Requests returns the number of requests sent so far.
func (c *Counter) Requests() int64 { return c.requests.Load() }

// Bytes returns the number of response body bytes read so far (as the client decodes them: after the
// transport's transparent gzip decompression, when the server compressed them).
func (c *Counter) Bytes() int64 { return c.bytes.Load() }

// Wrap returns rt counting through c; fit for rest.Config.WrapTransport.
func (c *Counter) Wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		c.requests.Add(1)
		resp, err := rt.RoundTrip(req)
		if resp != nil && resp.Body != nil {
			resp.Body = &countingBody{ReadCloser: resp.Body, c: c}
		}
		return resp, err
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

type countingBody struct {
	io.ReadCloser
	c *Counter
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.c.bytes.Add(int64(n))
	return n, err
}
