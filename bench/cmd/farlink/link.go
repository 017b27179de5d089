package main

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"kscope/spawn"
)

// Shape is what the link does to the bytes of one direction: Delay is the one-way delay (the round trip is
// twice it when both directions have the same), Rate the bandwidth in bits per second (0: no cap).
type Shape struct {
	Delay time.Duration
	Rate  int64
}

// Stats are a proxy's counts since it started: connections accepted (Connections) and still open (Open),
// bytes forwarded client → server (Up) and server → client (Down), counted as they are written.
type Stats struct {
	Connections int64 `json:"connections"`
	Open        int64 `json:"open"`
	Up          int64 `json:"bytes_up"`
	Down        int64 `json:"bytes_down"`
}

// chunkSize is the most one read takes from a side: the unit the link delays and paces. Small enough that
// a capped link paces finely (16 KiB is 2.6 ms at 50 Mbit/s), large enough not to cost much CPU.
const chunkSize = 16 << 10

// Proxy forwards every TCP connection it accepts to Target through a shaped link: each chunk of bytes read
// from one side is written to the other Delay after it was read, and no sooner than the capped bandwidth
// allows after the chunk before it, in each direction on its own. Since it delays bytes and not only a
// connection's first packet, a TLS handshake pays its round trips as it would on a far link; the TCP
// handshake, which the proxy's host answers at once, is paid by holding the client's first bytes one round
// trip. Its methods are safe for concurrent use.
type Proxy struct {
	// Target is the address every connection is forwarded to.
	Target string
	// Go starts the proxy's goroutines (nil: plain go statements).
	Go spawn.Func

	mu         sync.Mutex
	up, down   Shape
	conns      map[*link]struct{}
	stallUntil time.Time
	stallWake  chan struct{} // closed (and replaced) when a stall is set or ends early

	connections, open, bytesUp, bytesDown atomic.Int64
}

// NewProxy returns a proxy to target with the given shape of each direction.
func NewProxy(target string, up, down Shape, goFn spawn.Func) *Proxy {
	return &Proxy{Target: target, Go: goFn, up: up, down: down, conns: map[*link]struct{}{}, stallWake: make(chan struct{})}
}

// SetShape changes the shape of each direction for the connections accepted from now on.
func (p *Proxy) SetShape(up, down Shape) {
	p.mu.Lock()
	p.up, p.down = up, down
	p.mu.Unlock()
}

// Stats returns the counts so far.
func (p *Proxy) Stats() Stats {
	return Stats{Connections: p.connections.Load(), Open: p.open.Load(), Up: p.bytesUp.Load(), Down: p.bytesDown.Load()}
}

// Drop closes every connection open now, on both sides, at once (what a link that goes away does to them).
// Connections accepted afterwards are forwarded as usual. It returns how many it closed.
func (p *Proxy) Drop() int {
	p.mu.Lock()
	links := make([]*link, 0, len(p.conns))
	for l := range p.conns {
		links = append(links, l)
	}
	p.mu.Unlock()
	for _, l := range links {
		l.close()
	}
	return len(links)
}

// Stall stops forwarding bytes, in both directions and on every connection (open or accepted meanwhile), for
// d from now; d <= 0 ends a stall at once. Bytes read meanwhile are held, not lost, and go on when it ends.
func (p *Proxy) Stall(d time.Duration) {
	p.mu.Lock()
	p.stallUntil = time.Now().Add(d)
	close(p.stallWake)
	p.stallWake = make(chan struct{})
	p.mu.Unlock()
}

// waitStall returns once no stall is in force, or when done is closed (false).
func (p *Proxy) waitStall(done <-chan struct{}) bool {
	for {
		p.mu.Lock()
		left, wake := time.Until(p.stallUntil), p.stallWake
		p.mu.Unlock()
		if left <= 0 {
			return true
		}
		t := time.NewTimer(left)
		select {
		case <-t.C:
		case <-wake:
			t.Stop()
		case <-done:
			t.Stop()
			return false
		}
	}
}

// Serve accepts connections on l and forwards each until l is closed; it returns l's error then.
func (p *Proxy) Serve(l net.Listener) error {
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		p.connections.Add(1)
		p.Go.Go(func() { p.forward(c) })
	}
}

// forward dials the target for the client connection c and links the two until either side ends.
func (p *Proxy) forward(c net.Conn) {
	p.open.Add(1)
	defer p.open.Add(-1)
	s, err := net.DialTimeout("tcp", p.Target, 10*time.Second)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	l := &link{client: c, server: s, done: make(chan struct{})}
	up, down := p.up, p.down
	p.conns[l] = struct{}{}
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.conns, l)
		p.mu.Unlock()
		l.close()
	}()
	// The client's connect returned at once (the proxy is on its host), where a far server's SYN-ACK takes a
	// round trip: its first bytes leave no sooner than that round trip after the accept.
	connected := time.Now().Add(up.Delay + down.Delay)
	var wg sync.WaitGroup
	for _, d := range []direction{
		{from: c, to: s, shape: up, count: &p.bytesUp, free: connected},
		{from: s, to: c, shape: down, count: &p.bytesDown},
	} {
		wg.Add(1)
		p.Go.Go(func() {
			defer wg.Done()
			p.pipe(l, d)
		})
	}
	wg.Wait()
}

// link is one forwarded connection: the client's side and the server's.
type link struct {
	client, server net.Conn
	once           sync.Once
	done           chan struct{} // closed by close
}

// close closes both sides once.
func (l *link) close() {
	l.once.Do(func() {
		close(l.done)
		l.client.Close()
		l.server.Close()
	})
}

// direction is one way of a link: bytes read from from are written to to, shaped, and counted in count; none
// leaves before free (the TCP handshake's round trip, for the client's side).
type direction struct {
	from, to net.Conn
	shape    Shape
	count    *atomic.Int64
	free     time.Time
}

// chunk is bytes read from a side and when they may be written to the other.
type chunk struct {
	b   []byte
	due time.Time
}

// pipe forwards one direction of l: a reader takes chunks from d.from and stamps each with when the link
// delivers it (its bandwidth's turn, plus the delay), a writer writes each at that time. The queue between
// them holds twice the bytes the link has in flight at full rate (at least 1 MiB), so a sender meets
// backpressure as behind a real link's buffer. A read's end half-closes the other side once the queue is
// written; an error on either side closes the whole link.
func (p *Proxy) pipe(l *link, d direction) {
	inFlight := d.shape.Rate / 8 * int64(d.shape.Delay) / int64(time.Second)
	queue := make(chan chunk, max(64, 2*inFlight/chunkSize+1))
	written := make(chan struct{})
	p.Go.Go(func() {
		defer close(written)
		for c := range queue {
			if !p.deliver(l, d, c) {
				l.close()
				for range queue { // let the reader end
				}
				return
			}
		}
		if tc, ok := d.to.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		} else {
			l.close()
		}
	})
	free := d.free // when the link has sent the bytes queued so far
	for {
		b := make([]byte, chunkSize)
		n, err := d.from.Read(b)
		if n > 0 {
			now := time.Now()
			free = later(free, now).Add(serialization(n, d.shape.Rate))
			queue <- chunk{b: b[:n], due: free.Add(d.shape.Delay)}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				l.close()
			}
			break
		}
	}
	close(queue)
	<-written
}

// deliver waits for c's time and for any stall to end, then writes it; false when the link ended or the
// write failed.
func (p *Proxy) deliver(l *link, d direction, c chunk) bool {
	if wait := time.Until(c.due); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-l.done:
			t.Stop()
			return false
		}
	}
	if !p.waitStall(l.done) {
		return false
	}
	n, err := d.to.Write(c.b)
	d.count.Add(int64(n))
	return err == nil
}

// serialization is how long n bytes take on a link of rate bits per second (0: no cap).
func serialization(n int, rate int64) time.Duration {
	if rate <= 0 {
		return 0
	}
	return time.Duration(int64(n) * 8 * int64(time.Second) / rate)
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
