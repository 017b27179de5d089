//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"kscope/watch"
)

// TestWatchRelistKeepsMetadata: a one-namespace Source (rows listed without metadata, filled in behind)
// is cut off while kube-apiserver restarts, its objects change and etcd is compacted, so that it must relist
// (410 Gone) while other objects churn. Rows whose cells and metadata did not change are never reported and
// never lose their labels or UID (a -l filter keeps matching them); the rows that did change are reported;
// afterwards every row equals the server's object (resourceVersion, UID, labels, DATA cell).
//
// Like TestReliabilityExpiredResourceVersionRelists it stops the suite's kube-apiserver: see
// reliability_test.go for running it on a cluster of its own.
func TestWatchRelistKeepsMetadata(t *testing.T) {
	serial(t, "compacts etcd")
	ns := testNamespace(t)
	cfg := restConfig(t, "admin")
	cs := kubernetes.NewForConfigOrDie(cfg)
	for i := range 20 {
		createConfigMap(t, cs, ns, fmt.Sprintf("keep-%d", i), "x")
	}
	proxy := startProxy(t, cfg)
	src, err := watch.NewSource(proxy.config(cfg), watch.Spec{GVR: configMapsGVR, Namespaced: true, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	src.Changes() // the feed is kept from the first call, as a table reads it
	src.Start(context.Background())
	t.Cleanup(src.Stop)
	waitPhase(t, src, watch.Synced, 60*time.Second)
	waitRowsAsServer(t, src, cs, ns, 60*time.Second, nil)
	if ch := src.Changes(); !ch.Empty() {
		t.Errorf("the first list and its metadata fill were reported as changes: %+v", ch)
	}
	phases := recordPhases(src)

	proxy.refuseNew()
	start := stopAPIServer(t)
	waitPhase(t, src, watch.Reconnecting, 60*time.Second)
	start()
	changeWhileCutOff(t, cs, ns)
	devcluster(t, "compact")
	churn := startConfigMapChurn(cs, ns)
	proxy.setCut(false)

	changes := collectChanges(src)
	waitPhase(t, src, watch.Synced, 90*time.Second)
	churn.halt()
	n := waitRowsAsServer(t, src, cs, ns, 90*time.Second, changes.checkKept)
	got := changes.stop()
	changes.checkKept(t)
	seen := phases.seen(true)
	t.Logf("%d rows equal the server's after the relist; phases %q", n, seen)
	if !slices.ContainsFunc(seen, func(p string) bool { return strings.Contains(p, "too old resource version") }) {
		t.Fatalf("the Source never relisted (no 410 Gone); phases %q", seen)
	}
	checkRelistChanges(t, ns, got)
}

// createConfigMap creates a ConfigMap labelled app=app with one data key.
func createConfigMap(t *testing.T, cs kubernetes.Interface, ns, name, app string) {
	t.Helper()
	_, err := cs.CoreV1().ConfigMaps(ns).Create(context.Background(), &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": app}},
		Data:       map[string]string{"v": "0"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
}

// changeWhileCutOff makes the changes the Source cannot see: keep-0…3 get a second data key (their DATA
// cell changes), keep-4…7 are relabelled app=y (cells unchanged), keep-8…11 get a new value (nothing a row
// shows changes), keep-12 and keep-13 are deleted, new-0 and new-1 created. keep-14…19 stay as they are.
func changeWhileCutOff(t *testing.T, cs kubernetes.Interface, ns string) {
	t.Helper()
	ctx := context.Background()
	update := func(name string, change func(*corev1.ConfigMap)) {
		cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		change(cm)
		if _, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 4 {
		update(fmt.Sprintf("keep-%d", i), func(cm *corev1.ConfigMap) { cm.Data["w"] = "1" })
		update(fmt.Sprintf("keep-%d", 4+i), func(cm *corev1.ConfigMap) { cm.Labels["app"] = "y" })
		update(fmt.Sprintf("keep-%d", 8+i), func(cm *corev1.ConfigMap) { cm.Data["v"] = "1" })
	}
	for _, name := range []string{"keep-12", "keep-13"} {
		if err := cs.CoreV1().ConfigMaps(ns).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	createConfigMap(t, cs, ns, "new-0", "x")
	createConfigMap(t, cs, ns, "new-1", "x")
}

// unchangedNames are the ConfigMaps whose rows the relist must neither report nor strip of metadata: nothing
// a row shows changed (keep-8…11 have a new resourceVersion only).
func unchangedNames() []string {
	var names []string
	for i := 8; i < 20; i++ {
		if i != 12 && i != 13 {
			names = append(names, fmt.Sprintf("keep-%d", i))
		}
	}
	return names
}

// checkRelistChanges checks the changes reported from the relist on against what changed while cut off.
func checkRelistChanges(t *testing.T, ns string, got watch.ChangeSet) {
	t.Helper()
	for _, name := range unchangedNames() {
		if slices.Contains(got.Updated, ns+"/"+name) || slices.Contains(got.Added, ns+"/"+name) {
			t.Errorf("unchanged row %s was reported as a change", name)
		}
	}
	for i := range 8 { // keep-0…3: new cells; keep-4…7: new labels
		if key := fmt.Sprintf("%s/keep-%d", ns, i); !slices.Contains(got.Updated, key) {
			t.Errorf("changed row %s was not reported as updated (updated: %v)", key, got.Updated)
		}
	}
	for _, name := range []string{"new-0", "new-1"} {
		if !slices.Contains(got.Added, ns+"/"+name) {
			t.Errorf("created row %s was not reported as added (added: %v)", name, got.Added)
		}
	}
	deleted := map[string]*watch.Row{}
	for _, r := range got.Deleted {
		deleted[r.Name] = r
	}
	for _, name := range []string{"keep-12", "keep-13"} {
		switch r := deleted[name]; {
		case r == nil:
			t.Errorf("deleted row %s was not reported as deleted", name)
		case r.UID == "" || r.Labels["app"] != "x":
			t.Errorf("deleted row %s reported without its metadata: uid %q labels %v", name, r.UID, r.Labels)
		}
	}
}

// changeCollector drains a Source's changes every 20 ms, coalescing them as one long ChangeSet, and checks
// on every round that the unchanged rows keep their metadata (checkKept).
type changeCollector struct {
	src  *watch.Source
	mu   sync.Mutex
	all  watch.ChangeSet
	lost []string // unchanged rows seen without their metadata or outside the -l filter
	stop func() watch.ChangeSet
}

func collectChanges(src *watch.Source) *changeCollector {
	c := &changeCollector{src: src}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			c.round()
			select {
			case <-done:
				c.round()
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	c.stop = func() watch.ChangeSet {
		close(done)
		<-finished
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.all
	}
	return c
}

// round drains the changes and checks the unchanged rows once.
func (c *changeCollector) round() {
	ch := c.src.Changes()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.all.Added = append(c.all.Added, ch.Added...)
	c.all.Updated = append(c.all.Updated, ch.Updated...)
	c.all.Deleted = append(c.all.Deleted, ch.Deleted...)
	sel, _ := watch.ParseFilter("-l app=x")
	matched := map[string]bool{}
	for _, r := range c.src.Snapshot(watch.Query{SortColumn: -1, Filter: sel}).Rows {
		matched[r.Name] = true
	}
	for _, name := range unchangedNames() {
		r, ok := c.src.Row(c.src.Spec().Namespace + "/" + name)
		switch {
		case !ok:
			c.lost = append(c.lost, name+" (no row)")
		case r.UID == "" || r.Labels["app"] != "x" || !matched[name]:
			c.lost = append(c.lost, fmt.Sprintf("%s (uid %q, labels %v, -l app=x matches: %v)", name, r.UID,
				r.Labels, matched[name]))
		}
	}
}

// checkKept fails t if an unchanged row was ever seen without its metadata.
func (c *changeCollector) checkKept(t *testing.T) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.lost) > 0 {
		t.Fatalf("unchanged rows lost their metadata during the relist (%d times), first: %s", len(c.lost), c.lost[0])
	}
}

// waitRowsAsServer waits until src's rows equal the server's ConfigMaps in ns (names, resourceVersions,
// UIDs, labels and DATA cells) and returns how many there are; check, if set, runs on every round.
func waitRowsAsServer(t *testing.T, src *watch.Source, cs kubernetes.Interface, ns string, timeout time.Duration,
	check func(*testing.T)) int {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if check != nil {
			check(t)
		}
		list, err := cs.CoreV1().ConfigMaps(ns).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		diff := rowsDiff(src, ns, list.Items)
		if diff == "" {
			return len(list.Items)
		}
		if time.Now().After(deadline) {
			t.Fatalf("rows differ from the server after %v (state %s): %s", timeout, src.State().Phase, diff)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// rowsDiff describes the first difference between src's rows and items, or returns "".
func rowsDiff(src *watch.Source, ns string, items []corev1.ConfigMap) string {
	if src.Len() != len(items) {
		return fmt.Sprintf("%d rows, server has %d", src.Len(), len(items))
	}
	for _, cm := range items {
		r, ok := src.Row(ns + "/" + cm.Name)
		switch {
		case !ok:
			return "missing " + cm.Name
		case r.ResourceVersion != cm.ResourceVersion || r.UID != cm.UID || !maps.Equal(r.Labels, cm.Labels):
			return fmt.Sprintf("%s: rv %q uid %q labels %v, server %q %q %v", cm.Name, r.ResourceVersion, r.UID,
				r.Labels, cm.ResourceVersion, cm.UID, cm.Labels)
		case len(r.Cells) < 2 || r.Cells[1] != strconv.Itoa(len(cm.Data)):
			return fmt.Sprintf("%s: cells %q, server has %d data keys", cm.Name, r.Cells, len(cm.Data))
		}
	}
	return ""
}

// configMapChurn creates and deletes ConfigMaps named churn-N (labelled app=churn) until halted, so that the
// relist happens while other rows change; errors are ignored (the server may still be settling).
type configMapChurn struct {
	stop, done chan struct{}
}

func startConfigMapChurn(cs kubernetes.Interface, ns string) *configMapChurn {
	c := &configMapChurn{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		ctx := context.Background()
		for i := 0; ; i++ {
			select {
			case <-c.stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			_, _ = cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
				Name: fmt.Sprintf("churn-%d", i), Labels: map[string]string{"app": "churn"}}}, metav1.CreateOptions{})
			if i >= 3 {
				_ = cs.CoreV1().ConfigMaps(ns).Delete(ctx, fmt.Sprintf("churn-%d", i-3), metav1.DeleteOptions{})
			}
		}
	}()
	return c
}

// halt stops the churn and waits for its last request.
func (c *configMapChurn) halt() {
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	<-c.done
}
