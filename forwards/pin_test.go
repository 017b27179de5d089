package forwards

import (
	"context"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clocktesting "k8s.io/utils/clock/testing"

	"kscope/spawn"
)

var statefulSetsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"}

// The targets of these tests.
var (
	dbPod       = Target{GVR: podsGVR, Kind: "pod", Namespace: "shop", Name: "db-0", Port: Port{Number: 5432}}
	webDeploy   = Target{GVR: deploymentsGVR, Kind: "deployment", Namespace: "shop", Name: "web", Port: Port{Number: 8080}}
	dbSet       = Target{GVR: statefulSetsGVR, Kind: "statefulset", Namespace: "shop", Name: "db", Port: Port{Number: 5432}}
	webService  = Target{GVR: servicesGVR, Kind: "service", Namespace: "shop", Name: "web", Port: Port{Service: 80, Number: 8080}}
	stsDB       = ownedBy("StatefulSet", "db", "uid-sts-db")
	foreignRS   = ownedBy("ReplicaSet", "api-55f", "uid-rs-api-55f")
	webRSOfOld  = ownedBy("ReplicaSet", "web-7d9", "uid-rs-web-7d9-before") // a ReplicaSet of that name, deleted since
	noLabels    = labelled(map[string]string{"app": "other"})
	noControl   = controlledBy(nil)
	ofStatefulS = controlledBy(stsDB)
)

// TestPinRules: at its start a forward records what was chosen; afterwards it goes only to pods of that, and
// stops (saying why) when that was replaced: the pods a forward may go to after the changes, or why it stops.
func TestPinRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target Target
		// first is the pod the forward starts on, made with firstOpts.
		first     string
		firstOpts []podOption
		// then changes the cluster after the start.
		then func(c *fakeCluster)
		want []string
		stop string
	}{
		{name: "a pod without a controller, still there", target: dbPod, first: "db-0", firstOpts: []podOption{noControl},
			then: func(*fakeCluster) {}, want: []string{"db-0"}},
		{name: "a pod without a controller, deleted", target: dbPod, first: "db-0", firstOpts: []podOption{noControl},
			then: func(c *fakeCluster) { c.deletePod("db-0") },
			stop: "pod db-0 was deleted, and it had no controller to re-create it"},
		{name: "a pod without a controller, re-created under its name", target: dbPod, first: "db-0",
			firstOpts: []podOption{noControl}, then: func(c *fakeCluster) { c.addPod("db-0", 5432, true, noControl) },
			stop: "pod db-0 was re-created (uid changed), and it had no controller"},
		{name: "a StatefulSet's pod, re-created by it", target: dbPod, first: "db-0", firstOpts: []podOption{ofStatefulS},
			then: func(c *fakeCluster) { c.addPod("db-0", 5432, true, ofStatefulS) }, want: []string{"db-0"}},
		{name: "a StatefulSet's pod, gone: waits", target: dbPod, first: "db-0", firstOpts: []podOption{ofStatefulS},
			then: func(c *fakeCluster) { c.deletePod("db-0") }, want: nil},
		{name: "a StatefulSet's pod, re-created outside it", target: dbPod, first: "db-0", firstOpts: []podOption{ofStatefulS},
			then: func(c *fakeCluster) { c.addPod("db-0", 5432, true, noControl) },
			stop: "pod db-0 was re-created outside statefulset db (uid changed)"},
		{name: "a StatefulSet's pod, re-created by a new set of that name", target: dbPod, first: "db-0",
			firstOpts: []podOption{ofStatefulS},
			then: func(c *fakeCluster) {
				c.addPod("db-0", 5432, true, controlledBy(ownedBy("StatefulSet", "db", "uid-sts-db-2")))
			},
			stop: "pod db-0 was re-created outside statefulset db (uid changed)"},
		{name: "a deployment: its ReplicaSet's pods only", target: webDeploy, first: "web-a",
			then: func(c *fakeCluster) {
				c.addPod("api-x", 8080, true, controlledBy(foreignRS)) // the deployment's labels, another owner
				c.addPod("stray", 8080, true, noControl)
				c.addPod("web-old", 8080, true, controlledBy(webRSOfOld))
				c.addPod("web-b", 8080, true)
			}, want: []string{"web-a", "web-b"}},
		{name: "a deployment re-created", target: webDeploy, first: "web-a",
			then: func(c *fakeCluster) { c.put("deployments", "web", "uid-deploy-web-2", nil, nil) },
			stop: "deployment web was re-created (uid changed)"},
		{name: "a deployment whose ReplicaSet belongs to another deployment now", target: webDeploy, first: "web-a",
			then: func(c *fakeCluster) {
				c.put("replicasets", "web-7d9", "uid-rs-web-7d9", ownedBy("Deployment", "web", "uid-other"), nil)
			}, want: nil},
		{name: "a StatefulSet: its own pods only", target: dbSet, first: "db-0", firstOpts: []podOption{ofStatefulS},
			then: func(c *fakeCluster) {
				c.addPod("db-1", 5432, true, ofStatefulS)
				c.addPod("db-x", 5432, true) // the set's labels, made by the ReplicaSet
			}, want: []string{"db-0", "db-1"}},
		{name: "a service: its selector's pods, whoever owns them", target: webService, first: "web-a",
			then: func(c *fakeCluster) {
				c.addPod("web-b", 8080, true, noControl)
				c.addPod("other", 8080, true, noLabels)
			}, want: []string{"web-a", "web-b"}},
		{name: "a service re-created with another selector", target: webService, first: "web-a",
			then: func(c *fakeCluster) {
				c.put("services", "web", "uid-svc-web-2", nil, map[string]any{"selector": map[string]any{"app": "other"}})
				c.addPod("other", 8080, true, noLabels)
			}, stop: "service web was re-created (uid changed)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newFake(t)
			first := c.addPod(tc.first, 8080, true, tc.firstOpts...)
			ctx := context.Background()
			p, err := pinTo(ctx, c, tc.target, first)
			if err != nil {
				t.Fatalf("pin: %v", err)
			}
			tc.then(c)
			pods, _, err := p.candidates(ctx, c)
			var names []string
			for _, pod := range pods {
				names = append(names, pod.Name)
			}
			switch {
			case tc.stop != "" && (err == nil || !stopping(err) || err.Error() != tc.stop):
				t.Errorf("pods %v, err %v; want the stop %q", names, err, tc.stop)
			case tc.stop == "" && (err != nil || !slices.Equal(names, tc.want)):
				t.Errorf("pods %v, err %v; want %v", names, err, tc.want)
			}
		})
	}
}

// TestPinRefusesForeignFirstPod: a forward of a workload or a service does not start on a pod that is not one
// of its own (labels alike, another owner), and starts on one that is.
func TestPinRefusesForeignFirstPod(t *testing.T) {
	c := newFake(t)
	foreign := c.addPod("api-x", 8080, true, controlledBy(foreignRS))
	other := c.addPod("other", 8080, true, noLabels)
	own := c.addPod("web-a", 8080, true)
	for _, tc := range []struct {
		target Target
		first  *corev1.Pod
		err    string
	}{
		{webDeploy, foreign, "pod api-x is not a pod of deployment shop/web"},
		{webService, other, "pod other is not a pod of service shop/web"},
		{webDeploy, own, ""},
		{webService, own, ""},
	} {
		_, err := pinTo(context.Background(), c, tc.target, tc.first)
		if (err == nil) != (tc.err == "") || (err != nil && err.Error() != tc.err) {
			t.Errorf("%s on %s: %v, want %q", tc.target, tc.first.Name, err, tc.err)
		}
	}
	_, err := start(context.Background(), c, Request{Target: webDeploy, Pod: foreign, PodPort: 8080, Address: "127.0.0.1"},
		fastTiming())
	if err == nil || err.Error() != "port-forward shop/api-x:8080: pod api-x is not a pod of deployment shop/web" {
		t.Errorf("start on a foreign pod: %v", err)
	}
	if n := len(c.started()); n != 0 {
		t.Errorf("%d forwards to pods asked for, want none", n)
	}
}

// TestPinFollows: what :pf says a forward follows.
func TestPinFollows(t *testing.T) {
	for _, tc := range []struct {
		target Target
		opts   []podOption
		want   string
	}{
		{dbPod, []podOption{ofStatefulS}, "pod db-0 of statefulset db (uid uid-sts-…)"},
		{dbPod, []podOption{noControl}, "pod db-0 only (uid uid-1)"},
		{webDeploy, nil, "pods of deployment web (uid uid-depl…)"},
		{webService, nil, "pods selected by service web (uid uid-svc-…)"},
	} {
		c := newFake(t)
		name := "web-a"
		if tc.target == dbPod {
			name = "db-0"
		}
		first := c.addPod(name, 8080, true, tc.opts...)
		p, err := pinTo(context.Background(), c, tc.target, first)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.follows(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.target, got, tc.want)
		}
	}
}

// TestForwardStopsOnPodOutsideController: a forward of a StatefulSet's pod whose pod is re-created under its
// name outside the set never forwards to the new pod: it ends, saying why, its port closed; :pf's status says
// what it followed.
func TestForwardStopsOnPodOutsideController(t *testing.T) {
	c := newFake(t)
	first := c.addPod("db-0", 5432, true, ofStatefulS)
	fw, stop := startTest(t, c, dbPod, first, 5432)
	defer stop()
	if got := fw.Status().Follows; got != "pod db-0 of statefulset db (uid uid-sts-…)" {
		t.Errorf("follows %q", got)
	}
	c.deletePod("db-0")
	waitStatus(t, fw, "waiting", func(st Status) bool { return st.Phase == Waiting })
	c.addPod("db-0", 5432, true, noControl)
	st := waitStatus(t, fw, "the end", func(st Status) bool { return st.Phase == Over })
	if st.String() != "ended: pod db-0 was re-created outside statefulset db (uid changed)" {
		t.Errorf("status %+v (%s)", st, st)
	}
	if reqs := c.started(); len(reqs) != 1 {
		t.Errorf("forwards to pods asked for after the start: %+v", reqs[1:])
	}
	if conn, err := net.DialTimeout("tcp", fw.Local(), time.Second); err == nil {
		conn.Close()
		t.Error("the forward still listens after it ended")
	}
}

// TestForwardSkipsForeignPods: a deployment's forward whose pod goes never goes on to a ready pod with its
// labels owned by another, even listed first; it goes on to the deployment's next pod, and a service's forward
// ends once the service was re-created.
func TestForwardSkipsForeignPods(t *testing.T) {
	c := newFake(t)
	first := c.addPod("web-a", 8080, true)
	fw, stop := startTest(t, c, webDeploy, first, 8080)
	c.addPod("api-x", 8080, true, controlledBy(foreignRS))
	c.deletePod("web-a")
	waitStatus(t, fw, "no pod of its own", func(st Status) bool { return st.Why == "no ready pod of deployment shop/web" })
	c.addPod("web-b", 8080, true)
	st := waitStatus(t, fw, "the forward on web-b", func(st Status) bool { return st.Phase == Forwarding && st.Pod == "web-b" })
	for _, r := range c.started() {
		if r.Pod == "api-x" {
			t.Errorf("a forward to the foreign pod was asked for: %+v", r)
		}
	}
	if st.Moves != 1 {
		t.Errorf("status %+v", st)
	}
	stop()

	c = newFake(t)
	first = c.addPod("web-a", 8080, true)
	fw, stop = startTest(t, c, webService, first, 8080)
	defer stop()
	c.put("services", "web", "uid-svc-web-2", nil, map[string]any{"selector": map[string]any{"app": "web"},
		"ports": []any{map[string]any{"name": "http", "port": int64(80), "targetPort": "http"}}})
	c.addPod("web-b", 8080, true)
	c.deletePod("web-a")
	st = waitStatus(t, fw, "the end", func(st Status) bool { return st.Phase == Over })
	if st.Why != "service web was re-created (uid changed)" || !strings.HasPrefix(st.Follows, "pods selected by service web") {
		t.Errorf("status %+v", st)
	}
}

// TestForwardGoroutinesSupervised: every goroutine of a forward (accepting, following the pod, carrying a
// connection, each way of it) is started through Request.Go; a panic on one of them reaches the supervisor
// (which stops the UI, restoring the terminal) instead of ending the process.
func TestForwardGoroutinesSupervised(t *testing.T) {
	c := newFake(t)
	first := c.addPod("web-a", 8080, true)
	sup := spawn.NewSupervisor()
	started := make(chan struct{}, 64)
	counted := func(fn func()) {
		started <- struct{}{}
		sup.Go(fn)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fw, err := start(ctx, c, Request{Target: webDeploy, Pod: first, PodPort: 8080, Address: "127.0.0.1",
		Clock: clocktesting.NewFakePassiveClock(t0), Go: counted}, fastTiming())
	if err != nil {
		t.Fatal(err)
	}
	defer fw.ln.Close() // the goroutine that would close it panics
	conn, hello := dial(t, fw.Local())
	if got, err := conn.echo("ping"); hello != "web-a:8080" || err != nil || got != "ping" {
		t.Fatalf("through the forward: %q, %q, %v", hello, got, err)
	}
	conn.conn.Close()
	if n := len(started); n < 4 { // accept, run, the connection's carry and its second way
		t.Errorf("%d goroutines started through Request.Go, want at least 4", n)
	}
	c.mu.Lock()
	c.panicOnPods = "injected: a bug while looking for the next pod"
	c.mu.Unlock()
	c.deletePod("web-a")
	select {
	case <-sup.Failed():
	case <-time.After(10 * time.Second):
		t.Fatal("the supervisor did not see the panic")
	}
	if p := sup.Err(); p == nil || p.Error() != "internal error: injected: a bug while looking for the next pod" {
		t.Errorf("the supervisor's panic: %v", p)
	}
}
