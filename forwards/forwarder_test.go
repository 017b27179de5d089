package forwards

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// startTest starts a forward of target on first's port podPort; the returned stop ends it, waits for its end
// and for the fake's goroutines, and checks that no goroutine is left.
func startTest(t *testing.T, c *fakeCluster, target Target, first *corev1.Pod, podPort int) (*Forwarder, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	fw, err := start(ctx, c, Request{Target: target, Pod: first, PodPort: podPort, Address: "127.0.0.1",
		Clock: clocktesting.NewFakePassiveClock(t0)}, fastTiming())
	if err != nil {
		cancel()
		t.Fatalf("start: %v", err)
	}
	if st := fw.Status(); st.Phase != Forwarding || st.Pod != first.Name || st.Port != podPort || st.Moves != 0 {
		t.Errorf("status at start %+v", st)
	}
	return fw, func() {
		t.Helper()
		cancel()
		waitOver(t, fw)
		c.wg.Wait()
		goleak.VerifyNone(t)
	}
}

// waitStatus waits until the forward's status satisfies ok, and returns it.
func waitStatus(t *testing.T, fw *Forwarder, what string, ok func(Status) bool) Status {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		if st := fw.Status(); ok(st) {
			return st
		}
		select {
		case _, open := <-fw.Changed():
			if !open && !ok(fw.Status()) {
				t.Fatalf("the forward ended before %s: %+v", what, fw.Status())
			}
		case <-timeout:
			t.Fatalf("no %s after 10s: %+v", what, fw.Status())
		}
	}
}

// waitOver waits for the forward's end (Changed closed).
func waitOver(t *testing.T, fw *Forwarder) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case _, open := <-fw.Changed():
			if !open {
				return
			}
		case <-timeout:
			t.Fatalf("the forward did not end: %+v", fw.Status())
		}
	}
}

// TestForwardGoesToAnotherPod: a service's forward whose pod is deleted fails the connection in flight, says
// it is reconnecting, goes on to the other ready pod (not the unready one) at the target port looked up there
// (the named port is another number on it), counts one move, and a new connection reaches the new pod.
func TestForwardGoesToAnotherPod(t *testing.T) {
	c := newFake(t)
	first := c.addPod("web-a", 8080, true)
	c.addPod("web-b", 9090, false) // not ready: never chosen
	fw, stop := startTest(t, c, Target{GVR: servicesGVR, Kind: "service", Namespace: "shop", Name: "web",
		Port: Port{Service: 80, Number: 8080}}, first, 8080)
	defer stop()
	inFlight, hello := dial(t, fw.Local())
	if hello != "web-a:8080" {
		t.Fatalf("greeting %q, want web-a:8080", hello)
	}
	if got, err := inFlight.echo("ping"); err != nil || got != "ping" {
		t.Fatalf("echo %q, %v", got, err)
	}
	c.addPod("web-c", 9090, true)
	c.deletePod("web-a")
	st := waitStatus(t, fw, "a forward to web-c", func(st Status) bool { return st.Phase == Forwarding && st.Pod == "web-c" })
	if got, err := inFlight.echo("after"); err == nil { // the fake pod's end of it is still open: the Forwarder closed it
		t.Errorf("the connection in flight on the deleted pod still works: %q", got)
	}
	if st.Port != 9090 || st.Moves != 1 || st.String() != "forwarding to web-c:9090" {
		t.Errorf("status %+v (%s)", st, st)
	}
	next, hello := dial(t, fw.Local())
	if hello != "web-c:9090" {
		t.Errorf("a new connection reached %q, want web-c:9090", hello)
	}
	next.conn.Close()
	inFlight.conn.Close()
	reqs := c.started()
	if last := reqs[len(reqs)-1]; last.Pod != "web-c" || last.PodPort != 9090 || last.Address != "127.0.0.1" || last.LocalPort != 0 {
		t.Errorf("the forward to the new pod: %+v", last)
	}
}

// TestForwardWaitsForPodOfSameName: a forward of a StatefulSet's pod whose pod is deleted waits for a pod of
// that name (its status says so, and since when); a connection made meanwhile waits too, and reaches the new
// pod its set made once it runs; the new pod (another UID) counts as a move.
func TestForwardWaitsForPodOfSameName(t *testing.T) {
	c := newFake(t)
	first := c.addPod("db-0", 5432, true, ofStatefulS)
	c.addPod("db-1", 5432, true, ofStatefulS) // another pod of the set: a pod's forward does not go there
	fw, stop := startTest(t, c, Target{GVR: podsGVR, Kind: "pod", Namespace: "shop", Name: "db-0",
		Port: Port{Name: "http", Number: 5432}}, first, 5432)
	defer stop()
	c.deletePod("db-0")
	st := waitStatus(t, fw, "waiting", func(st Status) bool { return st.Phase == Waiting })
	if st.Pod != "db-0" || !st.Since.Equal(t0) || !strings.HasPrefix(st.String(), "waiting for pod db-0 since 12:00:00 (") {
		t.Errorf("status %+v (%s)", st, st)
	}
	waitStatus(t, fw, "the failed attempt said", func(st Status) bool { return st.Why == "no pod shop/db-0" })
	hellos := make(chan string, 1)
	go func() {
		conn, err := net.DialTimeout("tcp", fw.Local(), 5*time.Second)
		if err != nil {
			hellos <- err.Error()
			return
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		buf := make([]byte, 64)
		n, err := conn.Read(buf)
		if err != nil {
			hellos <- err.Error()
			return
		}
		hellos <- strings.TrimSpace(string(buf[:n]))
	}()
	select {
	case h := <-hellos:
		t.Fatalf("a connection during the wait got %q before the pod came back", h)
	case <-time.After(100 * time.Millisecond):
	}
	c.addPod("db-0", 5433, true, ofStatefulS) // re-created by its set; its http port is another number now
	if h := <-hellos; h != "db-0:5433" {
		t.Errorf("the waiting connection reached %q, want db-0:5433", h)
	}
	st = waitStatus(t, fw, "forwarding again", func(st Status) bool { return st.Phase == Forwarding })
	if st.Pod != "db-0" || st.Moves != 1 {
		t.Errorf("status %+v", st)
	}
}

// TestForwardStopsDuringWait: a forward stopped while it waits for its pod ends at once ("stopped", its
// moves kept), the connection waiting is closed, its port is free again, and no goroutine is left.
func TestForwardStopsDuringWait(t *testing.T) {
	c := newFake(t)
	first := c.addPod("web-a", 8080, true)
	fw, stop := startTest(t, c, Target{GVR: deploymentsGVR, Kind: "deployment", Namespace: "shop", Name: "web",
		Port: Port{Number: 8080}}, first, 8080)
	c.deletePod("web-a")
	st := waitStatus(t, fw, "reconnecting", func(st Status) bool { return st.Phase == Reconnecting })
	if !strings.HasPrefix(st.String(), "reconnecting since 12:00:00 (pod shop/web-a was deleted") {
		t.Errorf("state %q", st)
	}
	waitStatus(t, fw, "the failed attempt said", func(st Status) bool { return st.Why == "no ready pod of deployment shop/web" })
	conn, err := net.Dial("tcp", fw.Local())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	local := fw.Local()
	stop()
	if st := fw.Status(); st.Phase != Over || st.String() != "stopped" {
		t.Errorf("status after stop %+v", st)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := conn.Read(make([]byte, 1)); err == nil {
		t.Errorf("the waiting connection read %d bytes after the stop", n)
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Error("the waiting connection was left open after the stop")
	}
	ln, err := net.Listen("tcp", local)
	if err != nil {
		t.Errorf("the port is not free after the stop: %v", err)
	} else {
		ln.Close()
	}
}

// TestForwardGapBounded: a connection made while there is no pod waits at most the gap, then is closed.
func TestForwardGapBounded(t *testing.T) {
	c := newFake(t)
	first := c.addPod("web-a", 8080, true)
	tm := fastTiming()
	tm.gap = 100 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fw, err := start(ctx, c, Request{Target: Target{GVR: deploymentsGVR, Kind: "deployment", Namespace: "shop",
		Name: "web", Port: Port{Number: 8080}}, Pod: first, PodPort: 8080, Address: "127.0.0.1"}, tm)
	if err != nil {
		t.Fatal(err)
	}
	c.deletePod("web-a")
	waitStatus(t, fw, "reconnecting", func(st Status) bool { return st.Phase == Reconnecting })
	conn, err := net.Dial("tcp", fw.Local())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	began := time.Now()
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); err == nil || time.Since(began) > 3*time.Second {
		t.Errorf("a connection in the gap: %v after %v, want closed after about 100ms", err, time.Since(began))
	}
	cancel()
	waitOver(t, fw)
	c.wg.Wait()
	goleak.VerifyNone(t)
}

// TestForwardBacksOff: attempts that fail are spaced by a growing delay (no busy loop), and so are pods whose
// forward ends as soon as it starts; the status says why the last attempt failed.
func TestForwardBacksOff(t *testing.T) {
	c := newFake(t)
	first := c.addPod("web-a", 8080, true)
	fw, stop := startTest(t, c, Target{GVR: deploymentsGVR, Kind: "deployment", Namespace: "shop", Name: "web",
		Port: Port{Number: 8080}}, first, 8080)
	defer stop()
	c.mu.Lock()
	c.refuse = errors.New("port-forward shop/web-a:8080: error upgrading connection: unable to upgrade")
	c.mu.Unlock()
	c.deletePod("web-a")
	c.addPod("web-b", 8080, true)
	waitStatus(t, fw, "the refusal said", func(st Status) bool { return strings.Contains(st.Why, "unable to upgrade") })
	before := len(c.started())
	time.Sleep(400 * time.Millisecond) // the delays are 10, 20, then 40 ms: about 10 attempts, never hundreds
	if n := len(c.started()) - before; n < 3 || n > 20 {
		t.Errorf("%d attempts in 400ms with a backoff of 10-40ms", n)
	}

	c.mu.Lock()
	c.refuse, c.endAtOnce = nil, true
	c.mu.Unlock()
	waitStatus(t, fw, "the lost stream said", func(st Status) bool { return st.Why == "the stream to the pod was lost" })
	before = len(c.started())
	time.Sleep(400 * time.Millisecond)
	if n := len(c.started()) - before; n < 3 || n > 20 {
		t.Errorf("%d forwards in 400ms to a pod whose forward ends at once", n)
	}
}

// TestStartFails: a local port in use, or a pod the first forward cannot reach, fails the start in one error
// and leaves nothing running (the port free).
func TestStartFails(t *testing.T) {
	c := newFake(t)
	pod := c.addPod("web-a", 8080, true)
	target := Target{GVR: podsGVR, Kind: "pod", Namespace: "shop", Name: "web-a", Port: Port{Number: 8080}}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := taken.Addr().(*net.TCPAddr).Port
	_, err = start(context.Background(), c, Request{Target: target, Pod: pod, PodPort: 8080, Address: "127.0.0.1",
		LocalPort: port}, fastTiming())
	if err == nil || !strings.HasPrefix(err.Error(), "port-forward shop/web-a:8080: unable to listen on port ") {
		t.Errorf("start on a port in use: %v", err)
	}
	taken.Close()
	c.refuse = errors.New("port-forward shop/web-a:8080: read-only mode: refused")
	_, err = start(context.Background(), c, Request{Target: target, Pod: pod, PodPort: 8080, Address: "127.0.0.1",
		LocalPort: port}, fastTiming())
	if err == nil || err.Error() != "port-forward shop/web-a:8080: read-only mode: refused" {
		t.Errorf("start refused: %v", err)
	}
	ln, err := net.Listen("tcp", taken.Addr().String())
	if err != nil {
		t.Errorf("the port is not free after a failed start: %v", err)
	} else {
		ln.Close()
	}
	goleak.VerifyNone(t)
}

// TestEligibleAndPort: which pods a forward may go to, and the port it reaches on each.
func TestEligibleAndPort(t *testing.T) {
	now := metav1.Now()
	pod := func(name string, phase corev1.PodPhase, ready bool, deleting bool) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: corev1.PodStatus{Phase: phase}}
		if ready {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		}
		if deleting {
			p.DeletionTimestamp = &now
		}
		return p
	}
	byName := Target{GVR: podsGVR, Name: "web-0"}
	workload := Target{GVR: deploymentsGVR, Name: "web"}
	for _, tc := range []struct {
		name   string
		target Target
		pod    *corev1.Pod
		want   bool
	}{
		{"a workload's ready running pod", workload, pod("web-1", corev1.PodRunning, true, false), true},
		{"a workload's pod not ready", workload, pod("web-1", corev1.PodRunning, false, false), false},
		{"a workload's pod being deleted", workload, pod("web-1", corev1.PodRunning, true, true), false},
		{"a workload's pod pending", workload, pod("web-1", corev1.PodPending, true, false), false},
		{"the pod, running, not ready", byName, pod("web-0", corev1.PodRunning, false, false), true},
		{"the pod, failed", byName, pod("web-0", corev1.PodFailed, false, false), false},
		{"the pod, being deleted", byName, pod("web-0", corev1.PodRunning, true, true), false},
		{"another pod", byName, pod("web-1", corev1.PodRunning, true, false), false},
	} {
		if got := tc.target.eligible(tc.pod); got != tc.want {
			t.Errorf("%s: eligible %v, want %v", tc.name, got, tc.want)
		}
	}

	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1"}, Spec: corev1.PodSpec{Containers: []corev1.Container{
		{Name: "web", Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8081}}}}}}
	for _, tc := range []struct {
		name string
		port Port
		want int
		err  string
	}{
		{"a number", Port{Number: 8080}, 8080, ""},
		{"a name, looked up", Port{Name: "http", Number: 8080}, 8081, ""},
		{"a name the pod lacks", Port{Name: "metrics", Number: 9090}, 0, "pod web-1 has no port named metrics"},
	} {
		got, err := (Target{Port: tc.port}).podPort(nil, p)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) {
			t.Errorf("%s: %d, %v; want %d, %q", tc.name, got, err, tc.want, tc.err)
		}
	}
}

// TestTargetString: how :pf names a forward's target.
func TestTargetString(t *testing.T) {
	for _, tc := range []struct {
		t    Target
		want string
	}{
		{Target{GVR: podsGVR, Kind: "pod", Namespace: "shop", Name: "web-0", Port: Port{Number: 8080}}, "shop/web-0:8080"},
		{Target{GVR: servicesGVR, Kind: "service", Namespace: "shop", Name: "web", Port: Port{Service: 80, Number: 8080}}, "service shop/web:80"},
		{Target{GVR: deploymentsGVR, Kind: "deployment", Namespace: "shop", Name: "api", Port: Port{Number: 8080}}, "deployment shop/api:8080"},
	} {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}
