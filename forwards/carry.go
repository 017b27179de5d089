package forwards

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/spawn"
)

// loopback is where a pod's forward listens, for the forward's connections only.
const loopback = "127.0.0.1"

// dialTimeout bounds the connection to a pod's forward (on loopback: at once, or never).
const dialTimeout = 10 * time.Second

// upstream is the forward to one pod (cluster.Streams.PortForward on a loopback port) and the connections
// carried through it.
type upstream struct {
	pod  string
	uid  types.UID
	port int
	// addr is where its forward listens.
	addr   string
	ended  <-chan error
	cancel context.CancelFunc
	// gone is closed once it is over.
	gone chan struct{}

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
}

// open forwards a loopback port to port of pod (that pod: by its UID too), until ctx ends or the upstream is
// closed.
func (f *Forwarder) open(ctx context.Context, pod *corev1.Pod, port int) (*upstream, error) {
	ctx, cancel := context.WithCancel(ctx)
	local, ended, err := f.c.PortForward(ctx, cluster.PortForwardRequest{Namespace: pod.Namespace, Pod: pod.Name,
		UID: pod.UID, Address: loopback, PodPort: port})
	if err != nil {
		cancel()
		return nil, err
	}
	return &upstream{pod: pod.Name, uid: pod.UID, port: port, addr: net.JoinHostPort(loopback, strconv.Itoa(local)),
		ended: ended, cancel: cancel, gone: make(chan struct{}), conns: map[net.Conn]struct{}{}}, nil
}

// wait returns why the pod's forward ended, or nil once ctx ends.
func (u *upstream) wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case err := <-u.ended:
		if err == nil {
			err = fmt.Errorf("the forward to pod %s ended", u.pod)
		}
		return err
	}
}

// close ends the pod's forward and closes the connections through it (they fail: their pod is gone), then
// waits for the forward's end.
func (u *upstream) close() {
	u.cancel()
	u.mu.Lock()
	u.closed = true
	for c := range u.conns {
		_ = c.Close()
	}
	clear(u.conns)
	u.mu.Unlock()
	close(u.gone)
	for range u.ended {
		// drained until closed: then the forward's goroutines are over
	}
}

// track adds conns to those carried through u; false when u is already over (the caller closes them).
func (u *upstream) track(conns ...net.Conn) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.closed {
		return false
	}
	for _, c := range conns {
		u.conns[c] = struct{}{}
	}
	return true
}

// untrack removes conns from u's.
func (u *upstream) untrack(conns ...net.Conn) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, c := range conns {
		delete(u.conns, c)
	}
}

// accept takes the local connections and carries each on a goroutine of its own, until the listener closes; a
// listener that fails otherwise ends the forward (stop).
func (f *Forwarder) accept(ctx context.Context, stop context.CancelCauseFunc) {
	defer f.wg.Done()
	for {
		conn, err := f.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				stop(fmt.Errorf("listening on %s: %w", f.ln.Addr(), err))
			}
			return
		}
		f.wg.Add(1)
		f.spawn.Go(func() {
			defer f.wg.Done()
			f.carry(ctx, conn)
		})
	}
}

// carry carries conn to the pod of the moment, waiting at most timing.gap for one; conn is closed when there is
// none by then, when ctx ends, or when its pod goes while it is carried.
func (f *Forwarder) carry(ctx context.Context, conn net.Conn) {
	deadline := time.NewTimer(f.timing.gap)
	defer deadline.Stop()
	for {
		up, ready := f.current()
		if up == nil {
			select {
			case <-ready:
				continue
			case <-deadline.C:
			case <-ctx.Done():
			}
			_ = conn.Close()
			return
		}
		dialer := net.Dialer{Timeout: dialTimeout}
		out, err := dialer.DialContext(ctx, "tcp", up.addr)
		if err == nil && up.track(conn, out) {
			pipe(f.spawn, conn, out)
			up.untrack(conn, out)
			return
		}
		if out != nil {
			_ = out.Close()
		}
		// Nothing was read from conn yet: once this pod's forward is over, the next pod's may take it.
		select {
		case <-up.gone:
			continue
		case <-deadline.C:
		case <-ctx.Done():
		}
		_ = conn.Close()
		return
	}
}

// pipe copies a to b and b to a until both ends are done (a side's end of stream is passed on as a half
// close), one way on a goroutine started with start; a copy that fails closes both at once. Both are closed
// when it returns.
func pipe(start spawn.Func, a, b net.Conn) {
	closeBoth := func() { _, _ = a.Close(), b.Close() }
	done := make(chan struct{})
	start.Go(func() {
		defer close(done)
		if copyHalf(b, a) != nil {
			closeBoth()
		}
	})
	if copyHalf(a, b) != nil {
		closeBoth()
	}
	<-done
	closeBoth()
}

// copyHalf copies src to dst, then passes the end of src on (a half close) when dst can take one, else
// closes dst.
func copyHalf(dst, src net.Conn) error {
	_, err := io.Copy(dst, src)
	if err != nil {
		return err
	}
	if hc, ok := dst.(interface{ CloseWrite() error }); ok {
		return hc.CloseWrite()
	}
	return dst.Close()
}
