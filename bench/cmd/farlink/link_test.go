package main

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// echoServer listens on loopback and echoes every connection's bytes back until it ends.
func echoServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return l.Addr().String()
}

// startProxy starts a proxy to target with shape s each way and returns it and its address.
func startProxy(t *testing.T, target string, s Shape) (*Proxy, string) {
	t.Helper()
	p := NewProxy(target, s, s, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close(); p.Drop() })
	go func() { _ = p.Serve(l) }()
	return p, l.Addr().String()
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// roundTrip writes msg and reads its echo, returning how long that took.
func roundTrip(t *testing.T, c net.Conn, msg []byte) time.Duration {
	t.Helper()
	start := time.Now()
	if _, err := c.Write(msg); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatalf("read the echo: %v", err)
	}
	if !bytes.Equal(got, msg) {
		t.Fatalf("echo %q, want %q", got, msg)
	}
	return time.Since(start)
}

func TestDelayEachDirection(t *testing.T) {
	const delay = 120 * time.Millisecond
	_, addr := startProxy(t, echoServer(t), Shape{Delay: delay})
	c := dial(t, addr)
	// Each round trip crosses the link twice: its echo cannot be back before twice the delay, the first
	// (the proxy dialing the server) nor any later one on the same connection.
	for i := range 3 {
		if took := roundTrip(t, c, []byte("ping")); took < 2*delay {
			t.Fatalf("round trip %d took %s, want at least %s", i, took, 2*delay)
		}
	}
}

func TestFirstBytesPayTheTCPHandshake(t *testing.T) {
	const delay = 100 * time.Millisecond
	_, addr := startProxy(t, echoServer(t), Shape{Delay: delay})
	// connect returns at once (the proxy is local); a far server's SYN-ACK would take a round trip, so the
	// first echo comes no sooner than that round trip and its own.
	c := dial(t, addr)
	if took := roundTrip(t, c, []byte("hello")); took < 4*delay {
		t.Fatalf("first round trip on a new connection took %s, want at least %s (the handshake's and its own)", took, 4*delay)
	}
}

func TestBandwidthCap(t *testing.T) {
	const rate = 8_000_000 // 1 MB/s
	_, addr := startProxy(t, echoServer(t), Shape{Rate: rate})
	c := dial(t, addr)
	msg := bytes.Repeat([]byte("x"), 256<<10)
	// 256 KiB up and the same down, each at 1 MB/s: each way takes 0.26 s; the two overlap, so at least one
	// way's time is the bound.
	want := serialization(len(msg), rate)
	if took := roundTrip(t, c, msg); took < want {
		t.Fatalf("256 KiB echoed in %s through a 8 Mbit/s link, want at least %s", took, want)
	}
}

func TestCountsConnectionsAndBytes(t *testing.T) {
	p, addr := startProxy(t, echoServer(t), Shape{})
	msg := bytes.Repeat([]byte("abcdefgh"), 12_500) // 100000 bytes
	for range 2 {
		c := dial(t, addr)
		roundTrip(t, c, msg)
		c.Close()
	}
	want := Stats{Connections: 2, Open: 0, Up: 2 * int64(len(msg)), Down: 2 * int64(len(msg))}
	deadline := time.Now().Add(5 * time.Second)
	for p.Stats() != want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := p.Stats(); got != want {
		t.Fatalf("stats %+v, want %+v", got, want)
	}
}

func TestDropClosesOpenConnections(t *testing.T) {
	p, addr := startProxy(t, echoServer(t), Shape{})
	c := dial(t, addr)
	roundTrip(t, c, []byte("before"))
	if n := p.Drop(); n != 1 {
		t.Fatalf("Drop closed %d connections, want 1", n)
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read on a dropped connection: %v, want the connection closed", err)
	}
	// The link itself is still there: a new connection is forwarded.
	roundTrip(t, dial(t, addr), []byte("after"))
}

func TestStallHoldsBytesUntilItEnds(t *testing.T) {
	p, addr := startProxy(t, echoServer(t), Shape{})
	c := dial(t, addr)
	roundTrip(t, c, []byte("before"))
	p.Stall(time.Hour)
	if _, err := c.Write([]byte("held")); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if n, err := c.Read(make([]byte, 4)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read during a stall: %d bytes, %v; want nothing until it ends", n, err)
	}
	// A connection opened during the stall is accepted but carries nothing either.
	c2 := dial(t, addr)
	_, _ = c2.Write([]byte("new"))
	_ = c2.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, err := c2.Read(make([]byte, 3)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read on a new connection during a stall: %d bytes, %v; want nothing", n, err)
	}
	p.Stall(0)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	got := make([]byte, 4)
	if _, err := io.ReadFull(c, got); err != nil || string(got) != "held" {
		t.Fatalf("after the stall: %q, %v; want the held bytes", got, err)
	}
	_ = c2.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(c2, got[:3]); err != nil || string(got[:3]) != "new" {
		t.Fatalf("new connection after the stall: %q, %v", got[:3], err)
	}
}

func TestParseRate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{in: "0", want: 0},
		{in: "50mbit", want: 50_000_000},
		{in: "2.5Mbit", want: 2_500_000},
		{in: "800kbit", want: 800_000},
		{in: "1gbit", want: 1_000_000_000},
		{in: "1200", want: 1200},
		{in: "fast", bad: true},
		{in: "-1mbit", bad: true},
	} {
		got, err := parseRate(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("parseRate(%q) = %d, %v; want %d, error %v", tc.in, got, err, tc.want, tc.bad)
		}
	}
}
