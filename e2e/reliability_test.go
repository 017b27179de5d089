//go:build e2e

package e2e

// Helpers of the reliability tests (reliability_*_test.go): cluster faults through the devcluster CLI, a
// TCP proxy that can cut kscope off the API server, churn that outlives a restart, comparison of watched
// rows with the server, and request counts from the API server's audit log.
//
// TestReliabilityAPIServerRestart and TestReliabilityExpiredResourceVersionRelists stop the suite's
// kube-apiserver (and compact etcd). To run them beside others who use the shared cluster, give them a
// cluster of their own:
//
//	mkdir -p /tmp/relcluster && cp -r .cache/devcluster/bin /tmp/relcluster/
//	KSCOPE_DEVCLUSTER_CACHE=/tmp/relcluster KSCOPE_DEVCLUSTER_SRC=$PWD/devcluster \
//		go test -tags e2e ./e2e -run TestReliability -v

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"kscope/watch"
)

// devcluster runs the devcluster CLI of the suite's cluster and fails t on error.
func devcluster(t *testing.T, args ...string) {
	t.Helper()
	cmd := devclusterCommand(args...)
	cmd.Dir = env.root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("devcluster %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// stopAPIServer stops kube-apiserver; it is started again (devcluster up) when t ends if the test did not.
// When t ends, it also waits until the controllers have caught up with the restarted server, so that the
// tests after it find a working cluster.
func stopAPIServer(t *testing.T) (start func()) {
	t.Helper()
	devcluster(t, "stop", "kube-apiserver")
	var once sync.Once
	start = func() { once.Do(func() { devcluster(t, "up") }) }
	t.Cleanup(func() {
		start()
		waitControllersCaughtUp(t)
	})
	return start
}

// waitControllersCaughtUp waits until kube-controller-manager, whose informers relist (with backoff) after an
// API server restart or a compaction, has caught up: a new namespace gets its default ServiceAccount, and a
// Deployment there gets its pod (through its ReplicaSet), as the tests' seeded workloads need. (The
// ServiceAccount alone was not enough: a test's deployment pods once stayed missing for a minute after it.)
func waitControllersCaughtUp(t *testing.T) {
	t.Helper()
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	name := "e2e-probe-" + randomSuffix()
	begin := time.Now()
	for {
		_, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
		if err == nil || apierrors.IsAlreadyExists(err) {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the API server does not take requests after its restart: %v", err)
		case <-time.After(time.Second):
		}
	}
	defer func() { _ = cs.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{}) }()
	caughtUp := func(what string, ok func() bool) {
		for !ok() {
			select {
			case <-ctx.Done():
				t.Fatalf("kube-controller-manager did not catch up within 3 minutes of the API server's restart: %s", what)
			case <-time.After(500 * time.Millisecond):
			}
		}
	}
	caughtUp("no default ServiceAccount", func() bool {
		_, err := cs.CoreV1().ServiceAccounts(name).Get(ctx, "default", metav1.GetOptions{})
		return err == nil
	})
	labels, one := map[string]string{"app": "probe"}, int32(1)
	probe := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "probe"}, Spec: appsv1.DeploymentSpec{
		Replicas: &one, Selector: &metav1.LabelSelector{MatchLabels: labels},
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "probe", Image: "registry.example.com/probe:1.0"}}}}}}
	if _, err := cs.AppsV1().Deployments(name).Create(ctx, probe, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create the probe deployment: %v", err)
	}
	caughtUp("no pod of a new deployment", func() bool {
		pods, err := cs.CoreV1().Pods(name).List(ctx, metav1.ListOptions{LabelSelector: "app=probe"})
		return err == nil && len(pods.Items) > 0
	})
	t.Logf("controllers caught up %v after the restart", time.Since(begin).Round(time.Second))
}

// cutProxy forwards TCP connections to the API server. While cut it drops every open connection and
// refuses new ones (connection refused, as from a server that is down or a partition), yet the server keeps
// running, so the cluster can change meanwhile.
type cutProxy struct {
	t      *testing.T
	addr   string
	target string
	// stalled holds every byte in both directions while connections stay open (a silent partition).
	stalled atomic.Bool
	mu      sync.Mutex
	ln      net.Listener // nil while cut
	conns   map[net.Conn]bool
}

// startProxy starts a proxy to cfg's server; it is closed when t ends.
func startProxy(t *testing.T, cfg *rest.Config) *cutProxy {
	t.Helper()
	u, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{t: t, addr: "127.0.0.1:0", target: u.Host, conns: map[net.Conn]bool{}}
	p.setCut(false)
	t.Cleanup(func() { p.setCut(true) })
	return p
}

// config returns cfg talking to the server through the proxy.
func (p *cutProxy) config(cfg *rest.Config) *rest.Config {
	c := rest.CopyConfig(cfg)
	c.Host = "https://" + p.addr
	return c
}

// setCut cuts (true) or restores (false) the connection to the server.
func (p *cutProxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case cut && p.ln != nil:
		p.ln.Close()
		p.ln = nil
		for c := range p.conns {
			c.Close()
		}
		p.conns = map[net.Conn]bool{}
	case !cut && p.ln == nil:
		ln, err := net.Listen("tcp", p.addr)
		if err != nil {
			p.t.Fatalf("proxy listen on %s: %v", p.addr, err)
		}
		p.ln, p.addr = ln, ln.Addr().String()
		go p.serve(ln)
	}
}

// refuseNew refuses new connections but keeps the open ones (a watch stream goes on until the server
// ends it); setCut(false) accepts them again.
func (p *cutProxy) refuseNew() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
}

func (p *cutProxy) serve(ln net.Listener) {
	for {
		in, err := ln.Accept()
		if err != nil {
			return
		}
		go p.forward(in)
	}
}

func (p *cutProxy) forward(in net.Conn) {
	out, err := net.Dial("tcp", p.target)
	if err != nil {
		in.Close()
		return
	}
	p.mu.Lock()
	p.conns[in], p.conns[out] = true, true
	p.mu.Unlock()
	go func() { p.pipe(out, in); out.Close() }()
	p.pipe(in, out)
	in.Close()
}

// pipe copies src to dst, holding the data while the proxy is stalled.
func (p *cutProxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		for p.stalled.Load() {
			time.Sleep(20 * time.Millisecond)
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// phaseRecorder records every phase a Source goes through, with the message of each non-synced one.
type phaseRecorder struct {
	mu     sync.Mutex
	phases []string
	stop   chan struct{}
	done   chan struct{}
}

func recordPhases(src *watch.Source) *phaseRecorder {
	r := &phaseRecorder{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		last := ""
		for {
			st := src.State()
			entry := st.Phase.String()
			if st.Message != "" {
				entry += ": " + st.Message
			}
			if entry != last {
				r.mu.Lock()
				r.phases = append(r.phases, entry)
				r.mu.Unlock()
				last = entry
			}
			select {
			case <-r.stop:
				return
			case <-src.Notify():
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return r
}

// seen returns the phases recorded so far (stopping the recorder with final).
func (r *phaseRecorder) seen(final bool) []string {
	if final {
		close(r.stop)
		<-r.done
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.phases...)
}

func (r *phaseRecorder) saw(prefix string) bool {
	for _, p := range r.seen(false) {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// serverState lists gvr in ns through the server and returns name → resourceVersion.
func serverState(t *testing.T, dyn dynamic.Interface, gvr schema.GroupVersionResource, ns string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := dyn.Resource(gvr).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list %s in %s: %v", gvr.Resource, ns, err)
	}
	out := map[string]string{}
	for _, o := range list.Items {
		out[ns+"/"+o.GetName()] = o.GetResourceVersion()
	}
	return out
}

// sourceState returns the Source's rows as key → resourceVersion.
func sourceState(src *watch.Source) map[string]string {
	out := map[string]string{}
	for _, r := range src.Snapshot(watch.Query{SortColumn: -1}).Rows {
		out[r.Key] = r.ResourceVersion
	}
	return out
}

// waitRowsEqualServer waits until the Source's rows equal the server's objects (names and resourceVersions:
// nothing lost, nothing phantom, nothing stale) and returns how many there are.
func waitRowsEqualServer(t *testing.T, src *watch.Source, dyn dynamic.Interface, gvr schema.GroupVersionResource, ns string, timeout time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		want := serverState(t, dyn, gvr, ns)
		diff := mapDiff(sourceState(src), want)
		if diff == "" {
			return len(want)
		}
		if time.Now().After(deadline) {
			t.Fatalf("rows differ from the server after %v (state %s): %s", timeout, src.State().Phase, diff)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// podChurn creates, patches and deletes pods in a namespace until stopped; each operation is retried
// (every 200 ms) while the server is unreachable, so the churn goes on across a restart.
type podChurn struct {
	cs      kubernetes.Interface
	ns      string
	ops     atomic.Int64
	retries atomic.Int64
	stop    chan struct{}
	done    chan struct{}
}

func startPodChurn(t *testing.T, cfg *rest.Config, ns string, perSecond int) *podChurn {
	t.Helper()
	c := rest.CopyConfig(cfg)
	c.Timeout = 5 * time.Second
	c.QPS, c.Burst = 100, 200
	ch := &podChurn{cs: kubernetes.NewForConfigOrDie(c), ns: ns, stop: make(chan struct{}), done: make(chan struct{})}
	go ch.run(time.Second / time.Duration(perSecond))
	t.Cleanup(ch.halt)
	return ch
}

// halt stops the churn and waits for its last operation.
func (ch *podChurn) halt() {
	select {
	case <-ch.stop:
	default:
		close(ch.stop)
	}
	<-ch.done
}

func (ch *podChurn) run(every time.Duration) {
	defer close(ch.done)
	var live []string
	for i := 0; ; i++ {
		select {
		case <-ch.stop:
			return
		case <-time.After(every):
		}
		var op func(context.Context) error
		switch {
		case i%3 == 2 && len(live) > 3: // delete the oldest
			name := live[0]
			live = live[1:]
			op = func(ctx context.Context) error {
				err := ch.cs.CoreV1().Pods(ch.ns).Delete(ctx, name, *metav1.NewDeleteOptions(0))
				if apierrors.IsNotFound(err) {
					return nil
				}
				return err
			}
		case i%3 == 1 && len(live) > 0: // patch a label of the newest
			name := live[len(live)-1]
			patch := []byte(fmt.Sprintf(`{"metadata":{"labels":{"round":"%d"}}}`, i))
			op = func(ctx context.Context) error {
				_, err := ch.cs.CoreV1().Pods(ch.ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
				if apierrors.IsNotFound(err) {
					return nil
				}
				return err
			}
		default:
			name := fmt.Sprintf("churn-%d", i)
			live = append(live, name)
			op = func(ctx context.Context) error {
				_, err := ch.cs.CoreV1().Pods(ch.ns).Create(ctx, &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "churn"}},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
				}, metav1.CreateOptions{})
				if apierrors.IsAlreadyExists(err) {
					return nil
				}
				return err
			}
		}
		ch.retry(op)
	}
}

// retry runs op until it succeeds or the churn is stopped.
func (ch *podChurn) retry(op func(context.Context) error) {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := op(ctx)
		cancel()
		if err == nil {
			ch.ops.Add(1)
			return
		}
		ch.retries.Add(1)
		select {
		case <-ch.stop:
			return
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// auditEvent is one line of the API server's audit log (the fields the tests count by).
type auditEvent struct {
	AuditID   string `json:"auditID"`
	Stage     string `json:"stage"`
	Verb      string `json:"verb"`
	URI       string `json:"requestURI"`
	UserAgent string `json:"userAgent"`
	User      struct {
		Username string `json:"username"`
	} `json:"user"`
	ObjectRef *struct {
		Resource    string `json:"resource"`
		Subresource string `json:"subresource"`
		Namespace   string `json:"namespace"`
	} `json:"objectRef"`
	ResponseStatus *struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
	Received time.Time `json:"requestReceivedTimestamp"`
}

// auditLog returns the path of the API server's audit log (requests of the viewer and tester users).
func auditLog() string { return filepath.Join(env.cache, "state", "logs", "audit.log") }

// auditRequests returns the requests (one event per audit ID) that user made with a user agent starting
// with agent ("kscope" for the binary), received in [from, to).
func auditRequests(t *testing.T, user, agent string, from, to time.Time) []auditEvent {
	t.Helper()
	f, err := os.Open(auditLog())
	if err != nil {
		t.Fatalf("audit log: %v", err)
	}
	defer f.Close()
	seen := map[string]bool{}
	var out []auditEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev auditEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.User.Username != user || seen[ev.AuditID] ||
			!strings.HasPrefix(ev.UserAgent, agent) || ev.Received.Before(from) || !ev.Received.Before(to) {
			continue
		}
		seen[ev.AuditID] = true
		out = append(out, ev)
	}
	return out
}

// describeRequests summarizes requests as "verb resource code ×n".
func describeRequests(evs []auditEvent) string {
	counts := map[string]int{}
	var order []string
	for _, ev := range evs {
		res, code := "", 0
		if ev.ObjectRef != nil {
			res = ev.ObjectRef.Resource
		}
		if ev.ResponseStatus != nil {
			code = ev.ResponseStatus.Code
		}
		k := fmt.Sprintf("%s %s %d", ev.Verb, res, code)
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, counts[k]))
	}
	return strings.Join(parts, ", ")
}
