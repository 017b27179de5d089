package forwards

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/clock"

	"kscope/cluster"
	"kscope/spawn"
)

// Cluster is what a forward asks of the cluster (cluster.Interface has it): the pods of what it forwards,
// the object it forwards (its UID, a service's selector and target ports, a Deployment's ReplicaSets), and a
// forward to one pod's port, through which every request goes (so that read-only mode refuses each one at
// the transport).
type Cluster interface {
	PodsFor(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) ([]corev1.Pod, error)
	Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error)
	PortForward(ctx context.Context, req cluster.PortForwardRequest) (local int, ended <-chan error, err error)
}

// Request is a forward to start: what it reaches, the pod it starts on and where it listens.
type Request struct {
	Target Target
	// Pod is the pod it starts on (the one the user was shown) and PodPort its port.
	Pod     *corev1.Pod
	PodPort int
	// Address and LocalPort are where it listens (LocalPort 0: any free port).
	Address   string
	LocalPort int
	// Clock dates the statuses (nil: the system's clock).
	Clock clock.PassiveClock
	// Go starts each goroutine of the forward: the session's supervisor (spawn.Supervisor.Func), so that a
	// panic in one stops the UI and restores the terminal. Nil: plain goroutines (tests, tools).
	Go spawn.Func
}

// timing is how long a forward waits: between attempts to reach a pod (minBackoff, doubling up to
// maxBackoff; a pod that served at least maxBackoff starts the count again), at most for one attempt's
// reads (attempt), and at most, for a connection accepted while there is no pod, for one (gap).
type timing struct {
	minBackoff, maxBackoff, attempt, gap time.Duration
}

// defaultTiming is the timing of kscope's forwards.
func defaultTiming() timing {
	return timing{minBackoff: 500 * time.Millisecond, maxBackoff: 5 * time.Second, attempt: 30 * time.Second,
		gap: 30 * time.Second}
}

// Forwarder is a forward that survives its pod: it owns the local listener for its whole life and carries
// each connection to the pod of the moment, through a forward of cluster.Streams to that pod (by name and
// UID) on a loopback port. When the pod goes (deleted, being deleted, no longer running, the stream to it
// lost) the connections through it are closed and the forward finds the next pod, trying again with a
// backoff; a connection accepted meanwhile waits for it, at most 30 s. The next pod is only one of what was
// chosen at the start (see pin): a ready pod the workload owns, or that the service (the same one, by UID)
// selects; for a pod, the pod of that name once it runs again, when it is the same pod or its controller
// made it. When what was chosen was replaced (a UID changed) or a pod without a controller is gone, the
// forward ends, saying why, rather than go to a pod the user did not choose. It runs until ctx ends. Each of
// its goroutines is started through Request.Go. Safe for concurrent use.
type Forwarder struct {
	c      Cluster
	target Target
	pin    pin
	spawn  spawn.Func
	clock  clock.PassiveClock
	timing timing
	ln     net.Listener
	// wg counts the goroutines serving connections (the accepting one included).
	wg sync.WaitGroup

	mu sync.Mutex
	// up is the forward to the pod of the moment, nil in a gap; ready is closed while there is one.
	up      *upstream
	ready   chan struct{}
	status  Status
	changed chan struct{}
}

// Start listens on req's address and port and forwards to req.Pod, returning once both are done; the forward
// then runs in the background until ctx ends. It records what it follows for its whole life: req.Pod (its UID
// and its controller's) for a pod; the UID of the workload or the service, read now, otherwise. A forward
// that cannot start (the address in use, the pod not running or not one of the workload's or the service's,
// read-only mode) returns the error and leaves nothing running.
func Start(ctx context.Context, c Cluster, req Request) (*Forwarder, error) {
	return start(ctx, c, req, defaultTiming())
}

func start(ctx context.Context, c Cluster, req Request, tm timing) (*Forwarder, error) {
	what := fmt.Sprintf("%s/%s:%d", req.Pod.Namespace, req.Pod.Name, req.PodPort)
	ln, err := net.Listen("tcp", net.JoinHostPort(req.Address, strconv.Itoa(req.LocalPort)))
	if err != nil {
		return nil, fmt.Errorf("port-forward %s: unable to listen on port %d: %w", what, req.LocalPort, err)
	}
	f := &Forwarder{c: c, target: req.Target, spawn: req.Go, clock: req.Clock, timing: tm, ln: ln,
		changed: make(chan struct{}, 1)}
	if f.clock == nil {
		f.clock = clock.RealClock{}
	}
	reads, cancel := context.WithTimeout(ctx, tm.attempt)
	f.pin, err = pinTo(reads, c, req.Target, req.Pod)
	cancel()
	if err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("port-forward %s: %w", what, err)
	}
	run, stop := context.WithCancelCause(ctx)
	up, err := f.open(run, req.Pod, req.PodPort)
	if err != nil {
		stop(nil)
		_ = ln.Close()
		return nil, err
	}
	f.forwarding(up, 0)
	f.wg.Add(1)
	f.spawn.Go(func() { f.accept(run, stop) })
	f.spawn.Go(func() { f.run(ctx, run, stop, up) })
	return f, nil
}

// Local is the address the forward listens on (127.0.0.1:8080).
func (f *Forwarder) Local() string { return f.ln.Addr().String() }

// Status is how the forward stands now, with what it follows.
func (f *Forwarder) Status() Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := f.status
	st.Follows = f.pin.follows()
	return st
}

// Changed receives (coalesced) after the status changed; it is closed once the forward is over (Status then
// says why) and every goroutine of it has ended.
func (f *Forwarder) Changed() <-chan struct{} { return f.changed }

// run follows the pod of the moment until it goes, then finds the next, until ctx (the caller's) or run (also
// ended by a failed listener, or by stop when what the forward follows was replaced) ends; then it closes
// everything and reports the end.
func (f *Forwarder) run(ctx, run context.Context, stop context.CancelCauseFunc, up *upstream) {
	bo := backoff{min: f.timing.minBackoff, max: f.timing.maxBackoff}
	moves := 0
	for up != nil {
		began := time.Now()
		lost := up.wait(run)
		up.close()
		if run.Err() != nil {
			break
		}
		f.lose(up, lost, moves)
		if time.Since(began) >= f.timing.maxBackoff {
			bo.reset()
		} else if !bo.wait(run) { // a pod lost soon after it was reached: no loop of attempts
			break
		}
		next := f.reconnect(run, stop, &bo, moves)
		if next != nil && next.uid != up.uid {
			moves++
		}
		if up = next; up != nil {
			f.forwarding(up, moves)
		}
	}
	_ = f.ln.Close()
	f.wg.Wait()
	why := ""
	if cause := context.Cause(run); ctx.Err() == nil && cause != nil {
		why = cause.Error()
	}
	f.mu.Lock()
	f.status = Status{Phase: Over, Why: why, Moves: moves}
	close(f.changed)
	f.mu.Unlock()
}

// reconnect reaches the next pod, trying again after each failure (the status says why) with bo's backoff; nil
// once ctx ends, or once what the forward follows was replaced (then it ends the forward through stop, for
// that reason).
func (f *Forwarder) reconnect(ctx context.Context, stop context.CancelCauseFunc, bo *backoff, moves int) *upstream {
	for {
		up, err := f.attempt(ctx)
		if err == nil {
			return up
		}
		if ctx.Err() != nil {
			return nil
		}
		if stopping(err) {
			stop(err)
			return nil
		}
		f.mu.Lock()
		f.status.Why = err.Error()
		f.notify()
		f.mu.Unlock()
		if !bo.wait(ctx) {
			return nil
		}
	}
}

// attempt finds the pod to go to now and forwards to it.
func (f *Forwarder) attempt(ctx context.Context) (*upstream, error) {
	reads, cancel := context.WithTimeout(ctx, f.timing.attempt)
	defer cancel()
	pod, port, err := f.pin.resolve(reads, f.c)
	if err != nil {
		return nil, err
	}
	return f.open(ctx, pod, port)
}

// forwarding records up as the pod of the moment. A connection waiting for a pod goes on to it.
func (f *Forwarder) forwarding(up *upstream, moves int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ready == nil {
		f.ready = make(chan struct{})
	}
	f.up = up
	close(f.ready) // the gap's: the connections waiting go on
	f.status = Status{Phase: Forwarding, Pod: up.pod, Port: up.port, Moves: moves}
	f.notify()
}

// lose records that up's pod went, for why: a gap until the next pod.
func (f *Forwarder) lose(up *upstream, why error, moves int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.up, f.ready = nil, make(chan struct{})
	f.status = Status{Phase: Reconnecting, Since: f.clock.Now(), Why: why.Error(), Moves: moves}
	if f.target.byName() {
		f.status.Phase, f.status.Pod = Waiting, up.pod
	}
	f.notify()
}

// notify tells Changed's reader. f.mu held.
func (f *Forwarder) notify() {
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

// current returns the forward to the pod of the moment (nil in a gap) and a channel closed once there is one.
func (f *Forwarder) current() (*upstream, <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.up, f.ready
}

// backoff is the wait between attempts: min, doubling up to max.
type backoff struct {
	min, max, next time.Duration
}

// wait waits the next delay; false when ctx ended first.
func (b *backoff) wait(ctx context.Context) bool {
	if b.next == 0 {
		b.next = b.min
	}
	t := time.NewTimer(b.next)
	defer t.Stop()
	b.next = min(2*b.next, b.max)
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// reset starts the delays again from min.
func (b *backoff) reset() { b.next = 0 }
