//go:build e2e

package e2e

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"text/tabwriter"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kscope/watch"
)

// TestReliabilityChaos: three views watch through a proxy that can cut them off — the ConfigMaps of one
// namespace (listed without metadata, filled in behind), the ConfigMaps of all namespaces, and the objects of
// a cluster-scoped CRD of the test's own — while those objects are created, relabelled, changed and deleted.
// Five cycles (KSCOPE_CHAOS_CYCLES=N; 0 skips the test) of four faults follow: kube-apiserver killed with
// SIGKILL and started again; etcd killed and started again; a partition (the proxy drops every connection
// while the objects change); a compaction the views must relist across (cut off, kube-apiserver killed and
// started again, objects changed, etcd compacted, then healed). After each fault the churn goes on until every
// view says synced again, then pauses: every view equals the server (same names, resourceVersions, UIDs and
// labels; nothing lost, nothing phantom). The log ends with the recovery times (from the fault's end to rows
// equal) per fault.
//
// It kills the suite's kube-apiserver and etcd (needs a devcluster CLI with `kill`: make devcluster-cli) and
// leaves them running; see reliability_test.go for running it on a cluster of its own.
func TestReliabilityChaos(t *testing.T) {
	serial(t, "kills kube-apiserver and etcd, compacts etcd")
	cycles := chaosCycles(t)
	ns := testNamespace(t)
	cfg := restConfig(t, "admin")
	dyn := dynamic.NewForConfigOrDie(cfg)
	crd := createClusterCRD(t, dyn)
	t.Cleanup(func() { // before the CRD and the namespace are deleted: the cluster is whole for the next test
		clusterUp(t)
		waitControllersCaughtUp(t) // (once, at the end: the churn and the views need no controller)
	})
	churn := startChaosChurn(t, cfg, 20,
		&churnTarget{gvr: configMapsGVR, ns: ns, apiVersion: "v1", kind: "ConfigMap", field: "data"},
		&churnTarget{gvr: crd, apiVersion: crd.Group + "/v1", kind: "Chaos", field: "spec"})
	proxy := startProxy(t, cfg)
	views := []*chaosView{
		{name: "one namespace", gvr: configMapsGVR, namespaced: true, ns: ns},
		{name: "all namespaces", gvr: configMapsGVR, namespaced: true},
		{name: "CRD", gvr: crd},
	}
	for _, v := range views {
		v.src = startSource(t, proxy.config(cfg), watch.Spec{GVR: v.gvr, Namespaced: v.namespaced, Namespace: v.ns})
		v.phases = recordPhases(v.src)
	}
	waitViewsEqual(t, dyn, views, time.Now(), 60*time.Second)
	churn.resume()

	faults := []chaosFault{
		{name: "kill -9 kube-apiserver", inject: func() { devcluster(t, "kill", "kube-apiserver"); time.Sleep(2 * time.Second) },
			heal: func() { clusterUp(t) }},
		{name: "kill -9 etcd", inject: func() { devcluster(t, "kill", "etcd"); time.Sleep(2 * time.Second) },
			heal: func() { clusterUp(t) }},
		{name: "partition", cutOff: true, inject: func() {
			proxy.setCut(true)
			churn.waitOps(t, 40, "during the partition")
		}, heal: func() { proxy.setCut(false) }},
		{name: "compaction", cutOff: true, inject: func() {
			proxy.setCut(true)
			devcluster(t, "kill", "kube-apiserver") // its successor's watch cache starts after the views' resourceVersions
			clusterUp(t)
			churn.waitOps(t, 20, "after the restart")
			devcluster(t, "compact")
		}, heal: func() { proxy.setCut(false) }},
	}
	took := map[string][][]time.Duration{} // fault → cycle → view
	for cycle := 1; cycle <= cycles; cycle++ {
		for _, f := range faults {
			churn.waitOps(t, 20, "before "+f.name) // changes the open watches must follow
			f.inject()
			behind := ""
			if f.cutOff {
				behind = checkCutOff(t, dyn, views)
			}
			f.heal()
			healed := time.Now()
			for _, v := range views { // the churn goes on while the views reconnect (or relist)
				waitPhase(t, v.src, watch.Synced, 120*time.Second)
			}
			var d []time.Duration
			func() {
				churn.pause()
				defer churn.resume()
				d = waitViewsEqual(t, dyn, views, healed, 120*time.Second)
			}()
			took[f.name] = append(took[f.name], d)
			t.Logf("cycle %d/%d, %s: every view synced and equal to the server (0 lost, 0 phantom, labels as there) "+
				"after %s (churn: %d changes, %d failed, paused %v after the heal)%s", cycle, cycles, f.name,
				describeRecovery(views, d), churn.ops.Load(), churn.failed.Load(),
				churn.pausedAt.Sub(healed).Round(10*time.Millisecond), behind)
		}
	}
	churn.pause() // for good
	waitViewsEqual(t, dyn, views, time.Now(), 60*time.Second)
	t.Log(recoveryTable(faults, views, took))
}

// chaosCycles returns how many fault cycles TestReliabilityChaos runs: 5, or KSCOPE_CHAOS_CYCLES (0 skips).
func chaosCycles(t *testing.T) int {
	t.Helper()
	s := cmp.Or(os.Getenv("KSCOPE_CHAOS_CYCLES"), "5")
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("KSCOPE_CHAOS_CYCLES=%q: want a number of cycles (0 skips the test)", s)
	} else if n == 0 {
		t.Skip("KSCOPE_CHAOS_CYCLES=0")
	}
	return n
}

// chaosFault is one fault of a chaos cycle: inject starts it (and may last a while), heal ends it; the churn
// goes on meanwhile.
type chaosFault struct {
	name         string
	inject, heal func()
	cutOff       bool // the views are cut off from a working server before heal: they must differ from it then
}

// chaosView is one open view of TestReliabilityChaos and what it shows: gvr in ns ("" for all namespaces, or
// for a resource that is not namespaced).
type chaosView struct {
	name       string
	gvr        schema.GroupVersionResource
	namespaced bool
	ns         string
	src        *watch.Source
	phases     *phaseRecorder
}

// diff compares the view's rows with the server's objects (names, resourceVersions, UIDs, labels): it returns
// how many rows differ (-1 when the server cannot be listed, as while it comes back) and what it saw.
func (v *chaosView) diff(dyn dynamic.Interface) (int, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := dyn.Resource(v.gvr).Namespace(v.ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return -1, "list from the server: " + err.Error()
	}
	rows := map[string]*watch.Row{}
	for _, r := range v.src.Snapshot(watch.Query{SortColumn: -1}).Rows {
		rows[r.Key] = r
	}
	var lost, phantom, stale, unlabelled int
	var first []string
	note := func(n *int, format string, args ...any) {
		*n++
		if len(first) < 3 {
			first = append(first, fmt.Sprintf(format, args...))
		}
	}
	for _, o := range list.Items {
		key := strings.TrimPrefix(o.GetNamespace()+"/"+o.GetName(), "/")
		switch r, ok := rows[key]; {
		case !ok:
			note(&lost, "lost %s", key)
		case r.ResourceVersion != o.GetResourceVersion() || r.UID != o.GetUID():
			note(&stale, "%s: rv %q uid %q, server %q %q", key, r.ResourceVersion, r.UID, o.GetResourceVersion(), o.GetUID())
		case !maps.Equal(r.Labels, o.GetLabels()):
			note(&unlabelled, "%s: labels %v, server %v", key, r.Labels, o.GetLabels())
		}
		delete(rows, key)
	}
	for key := range rows {
		note(&phantom, "phantom %s", key)
	}
	st := v.src.State()
	return lost + phantom + stale + unlabelled, fmt.Sprintf("%s %s; server %d objects: %d lost, %d phantom, %d stale, "+
		"%d with other labels; %s", st.Phase, st.Message, len(list.Items), lost, phantom, stale, unlabelled,
		strings.Join(first, "; "))
}

// waitViewsEqual waits until every view is synced and equals the server, and returns how long each took from
// since; after timeout it fails t with what each view still differing last showed.
func waitViewsEqual(t *testing.T, dyn dynamic.Interface, views []*chaosView, since time.Time, timeout time.Duration) []time.Duration {
	t.Helper()
	deadline := time.Now().Add(timeout)
	took := make([]time.Duration, len(views))
	seen := make([]string, len(views))
	for {
		pending := 0
		for i, v := range views {
			if took[i] > 0 {
				continue
			}
			var n int
			if n, seen[i] = v.diff(dyn); n == 0 && v.src.State().Phase == watch.Synced {
				took[i] = max(time.Since(since), time.Nanosecond)
			} else {
				pending++
			}
		}
		if pending == 0 {
			return took
		}
		if time.Now().After(deadline) {
			var b strings.Builder
			for i, v := range views {
				if took[i] == 0 {
					fmt.Fprintf(&b, "\n  %s: %s", v.name, seen[i])
				}
			}
			t.Fatalf("views still differ from the server after %v:%s", timeout, b.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// checkCutOff fails t when no view's rows differ from the server while all are cut off from it (the fault
// did not hold), and returns how many rows of each differ.
func checkCutOff(t *testing.T, dyn dynamic.Interface, views []*chaosView) string {
	t.Helper()
	parts := make([]string, len(views))
	behind := false
	for i, v := range views {
		n, _ := v.diff(dyn)
		behind = behind || n > 0
		parts[i] = fmt.Sprintf("%s %d", v.name, n)
	}
	if !behind {
		t.Fatalf("every view equals the server while cut off from it: the cut did not hold")
	}
	return "; rows behind before the heal: " + strings.Join(parts, ", ")
}

// describeRecovery formats each view's recovery time ("one namespace 1.2s, …").
func describeRecovery(views []*chaosView, took []time.Duration) string {
	parts := make([]string, len(views))
	for i, v := range views {
		parts[i] = fmt.Sprintf("%s %v", v.name, took[i].Round(10*time.Millisecond))
	}
	return strings.Join(parts, ", ")
}

// recoveryTable formats the median and the longest recovery time of each view per fault, and how often each
// view reported an expired resourceVersion (410 Gone, which makes it relist); it stops the phase recorders.
func recoveryTable(faults []chaosFault, views []*chaosView, took map[string][][]time.Duration) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprint(w, "recovery, fault's end to rows equal (median / max)\tcycles")
	for _, v := range views {
		fmt.Fprintf(w, "\t%s", v.name)
	}
	for _, f := range faults {
		fmt.Fprintf(w, "\n%s\t%d", f.name, len(took[f.name]))
		for i := range views {
			var d []time.Duration
			for _, c := range took[f.name] {
				d = append(d, c[i])
			}
			slices.Sort(d)
			median := (d[(len(d)-1)/2] + d[len(d)/2]) / 2
			fmt.Fprintf(w, "\t%v / %v", median.Round(10*time.Millisecond), d[len(d)-1].Round(10*time.Millisecond))
		}
	}
	fmt.Fprint(w, "\n410 Gone reported (times)\t")
	for _, v := range views {
		fmt.Fprintf(w, "\t%d", len(slices.DeleteFunc(v.phases.seen(true), func(p string) bool {
			return !strings.Contains(p, "too old resource version")
		})))
	}
	fmt.Fprintln(w)
	w.Flush()
	return b.String()
}

// clusterUp runs `devcluster up` until it succeeds, every 2 s for at most 2 minutes: right after etcd comes
// back, kube-apiserver fails up's node requests until it has reconnected to it.
func clusterUp(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		cmd := devclusterCommand("up")
		cmd.Dir = env.root
		out, err := cmd.CombinedOutput()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("devcluster up for 2 minutes: %v\n%s", err, out)
		}
		time.Sleep(2 * time.Second)
	}
}

// createClusterCRD creates a cluster-scoped CRD (kind Chaos) in a random group, deleted with its objects when
// t ends, and waits until it is served.
func createClusterCRD(t *testing.T, dyn dynamic.Interface) schema.GroupVersionResource {
	t.Helper()
	group := "e2e" + randomSuffix() + ".example.com"
	crdGVR := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	crd := newCRD(group, "chaoses", "chaos", "Chaos", "Cluster")
	if _, err := dyn.Resource(crdGVR).Create(context.Background(), crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create CRD: %v", err)
	}
	t.Cleanup(func() {
		if err := dyn.Resource(crdGVR).Delete(context.Background(), "chaoses."+group, metav1.DeleteOptions{}); err != nil {
			t.Errorf("delete CRD chaoses.%s: %v", group, err)
		}
	})
	gvr := schema.GroupVersionResource{Group: group, Version: "v1", Resource: "chaoses"}
	waitFor(t, 60*time.Second, "the CRD is served", func() bool {
		_, err := dyn.Resource(gvr).List(context.Background(), metav1.ListOptions{})
		return err == nil
	})
	return gvr
}

// churnTarget is one resource the chaos churn changes (gvr in ns, "" when cluster-scoped), with the names it
// believes exist; field is the object's top-level map that updates change ("data" or "spec").
type churnTarget struct {
	gvr                  schema.GroupVersionResource
	ns, apiVersion, kind string
	field                string
	res                  dynamic.ResourceInterface
	live                 []string
}

// chaosChurn changes its targets in turn, one request every 100 ms, cycling through create, relabel (a label
// set or removed), a change of field, and delete, until t ends. Failed requests (the server is down) are
// counted and skipped. pause holds it between two requests until resume, so that rows can be compared with the
// server's exact resourceVersions.
type chaosChurn struct {
	targets     []*churnTarget
	ops, failed atomic.Int64
	hold        sync.Mutex // held by each request, and from pause to resume
	paused      bool
	pausedAt    time.Time
	stop, done  chan struct{}
}

// startChaosChurn creates seed labelled objects in every target (before the views open, so that their first
// lists hold them), then starts the churn, paused until resume; it is halted when t ends.
func startChaosChurn(t *testing.T, cfg *rest.Config, seed int, targets ...*churnTarget) *chaosChurn {
	t.Helper()
	cfg = rest.CopyConfig(cfg)
	cfg.Timeout = 5 * time.Second
	cfg.QPS, cfg.Burst = 100, 200
	c := &chaosChurn{targets: targets, stop: make(chan struct{}), done: make(chan struct{})}
	for _, tg := range targets {
		tg.res = dynamic.NewForConfigOrDie(cfg).Resource(tg.gvr).Namespace(tg.ns)
		for i := range seed {
			if err := tg.create(fmt.Sprintf("pre-%d", i)); err != nil {
				t.Fatalf("create %s pre-%d: %v", tg.kind, i, err)
			}
		}
	}
	c.pause()
	go c.run()
	t.Cleanup(func() {
		close(c.stop)
		if c.paused {
			c.resume()
		}
		<-c.done
	})
	return c
}

// create creates the named object, labelled, and counts it alive.
func (tg *churnTarget) create(name string) error {
	o := &unstructured.Unstructured{Object: map[string]any{"apiVersion": tg.apiVersion, "kind": tg.kind,
		tg.field: map[string]any{"v": "0"}}}
	o.SetName(name)
	o.SetNamespace(tg.ns)
	o.SetLabels(map[string]string{"app": "chaos", "tier": "a"})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := tg.res.Create(ctx, o, metav1.CreateOptions{})
	if err == nil || apierrors.IsAlreadyExists(err) {
		tg.live = append(tg.live, name)
		return nil
	}
	return err
}

func (c *chaosChurn) run() {
	defer close(c.done)
	for i := 0; ; i++ {
		time.Sleep(100 * time.Millisecond)
		c.hold.Lock()
		select {
		case <-c.stop:
			c.hold.Unlock()
			return
		default:
		}
		err := c.targets[i%len(c.targets)].step(i / len(c.targets))
		c.hold.Unlock()
		if err != nil {
			c.failed.Add(1)
		} else {
			c.ops.Add(1)
		}
	}
}

// step makes the j-th change of tg: a create, a relabel, a change of field or a delete, in turn.
func (tg *churnTarget) step(j int) error {
	if len(tg.live) == 0 || j%4 == 0 {
		return tg.create(fmt.Sprintf("chaos-%d", j))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	name := tg.live[j%len(tg.live)]
	var patch string
	switch j % 4 {
	case 1: // relabel: a new round, and the tier label set or removed
		tier := `"a"`
		if j%8 == 5 {
			tier = "null"
		}
		patch = fmt.Sprintf(`{"metadata":{"labels":{"round":"%d","tier":%s}}}`, j, tier)
	case 2:
		patch = fmt.Sprintf(`{%q:{"v":"%d"}}`, tg.field, j)
	default:
		if len(tg.live) <= 10 {
			return nil
		}
		name, tg.live = tg.live[0], tg.live[1:]
		return tg.res.Delete(ctx, name, metav1.DeleteOptions{})
	}
	_, err := tg.res.Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	return err
}

// waitOps waits until the churn has made n more changes (counted from now), failing t after 60 s.
func (c *chaosChurn) waitOps(t *testing.T, n int64, when string) {
	t.Helper()
	from := c.ops.Load()
	waitForSeen(t, 60*time.Second, fmt.Sprintf("the churn makes %d changes %s", n, when), func() (bool, string) {
		made := c.ops.Load() - from
		return made >= n, fmt.Sprintf("%d changes, %d failed in all", made, c.failed.Load())
	})
}

// pause waits for the request under way and holds the churn until resume (both on the test's goroutine).
func (c *chaosChurn) pause() {
	c.hold.Lock()
	c.paused, c.pausedAt = true, time.Now()
}

// resume lets a paused churn go on.
func (c *chaosChurn) resume() {
	c.paused = false
	c.hold.Unlock()
}
