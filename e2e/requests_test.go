//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestRequestsWarmStart counts the requests a warm start of one table makes (issue 51: ≤ 12, each named):
// bin/kscope as the audited tester opens the pods of a namespace of its own with a discovery cache that a
// first launch filled (--cache-dir of the test's own), waits until the table is synced and kscope has sent
// nothing for 5 s (the catalog's watches have synced, the key bar's access checks are answered), and quits.
// Every request of that second launch in the audit log must be one of warmStartRequests, at most as often as
// it allows, and the total at most warmStartLimit: a new request, or a duplicate of one, fails the test with
// the whole list.
func TestRequestsWarmStart(t *testing.T) {
	serial(t, "counts the tester's kscope requests in the audit log")
	ns := testNamespace(t)
	seedPods(t, ns)
	cache := t.TempDir()
	args := []string{"--context", "tester", "--cache-dir", cache, "-n", ns, "pods"}

	cold := startUI(t, args...) // fills the discovery cache
	cold.waitFor("pods("+ns+")[3]", "synced")
	waitRequestsSettled(t, "tester", time.Now().Add(-time.Minute), 5*time.Second, "the first launch's list of pods",
		func(ev auditEvent) bool { return ev.ObjectRef != nil && ev.ObjectRef.Resource == "pods" })
	cold.typeText("q")
	cold.waitFor("KSCOPE-EXIT=0")

	from := time.Now()
	warm := startUI(t, args...)
	warm.waitFor("pods("+ns+")[3]", "synced")
	waitRequestsSettled(t, "tester", from, 5*time.Second, "the list of pods",
		func(ev auditEvent) bool { return ev.ObjectRef != nil && ev.ObjectRef.Resource == "pods" })
	warm.typeText("q")
	warm.waitFor("KSCOPE-EXIT=0")
	to := time.Now()
	waitAuditLogged(t, "tester")

	// Every request of the tester in that window is kscope's (whatever user agent a client of it sends):
	// the test's own requests go as admin, waitAuditLogged's marker after to.
	reqs := auditRequests(t, "tester", "", from, to)
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].Received.Before(reqs[j].Received) })
	var lines []string
	counts := map[string]int{}
	first := map[string]time.Time{}
	made := 0
	for _, ev := range reqs {
		name := requestName(ev, ns)
		line := fmt.Sprintf("  %s %s  %s", ev.Received.Format("15:04:05.000"), name, ev.URI)
		if !strings.HasPrefix(ev.UserAgent, "kscope") {
			line += "  (user agent " + ev.UserAgent + ")"
		}
		// The metrics are read again every 15 s (livetable.MetricsPeriod): a later poll, on a slow machine,
		// is the session's, not the launch's.
		if at, ok := first[name]; ok && strings.Contains(name, "metrics.k8s.io") && ev.Received.Sub(at) >= 14*time.Second {
			lines = append(lines, line+"  (the next poll: not counted)")
			continue
		}
		if _, ok := first[name]; !ok {
			first[name] = ev.Received
		}
		counts[name]++
		made++
		lines = append(lines, line)
	}
	listing := strings.Join(lines, "\n")
	t.Logf("a warm start of one table made %d requests:\n%s", made, listing)
	if made == 0 {
		t.Fatal("no request of tester's kscope in the audit log: the count proves nothing")
	}
	for name, n := range counts {
		switch allowed, ok := warmStartRequests[name]; {
		case !ok:
			t.Errorf("a request not among a warm start's (warmStartRequests): %s ×%d", name, n)
		case n > allowed:
			t.Errorf("%s ×%d, at most %d", name, n, allowed)
		}
	}
	if made > warmStartLimit {
		t.Errorf("a warm start of one table made %d requests, at most %d", made, warmStartLimit)
	}
}

// warmStartLimit is issue 51's target for the requests of a warm start of one table.
const warmStartLimit = 12

// warmStartRequests are the requests a warm start of one table may make (requestName's names), each with how
// often; the comment says who makes it and what for (bench/results/2026-12-07-requests-per-launch.md).
var warmStartRequests = map[string]int{
	// kube.Connect: the server's version for the header, and the proof that it answers before the screen
	// changes (discovery came from the disk cache).
	"get /version": 1,
	// discovery.Catalog.Run: the live catalog's watches (a CRD or APIService added or changed shows in the
	// picker), each one streaming list.
	"watch /apis/apiextensions.k8s.io/v1/customresourcedefinitions?sendInitialEvents=true&watch=true&allowWatchBookmarks=true": 1,
	"watch /apis/apiregistration.k8s.io/v1/apiservices?sendInitialEvents=true&watch=true&allowWatchBookmarks=true":             1,
	// discovery.Catalog.Run, once those watches have synced: one read of discovery (aggregated, core and
	// groups), so that a catalog loaded from the disk cache catches up with what changed since.
	"get /api":  1,
	"get /apis": 1,
	// the table (watch.Source): its rows without their objects, their metadata filled in behind, its watch.
	"list /api/v1/namespaces/NS/pods?includeObject=None&limit=250":                                1,
	"list /api/v1/namespaces/NS/pods?includeObject=Metadata&limit=250":                            1,
	"watch /api/v1/namespaces/NS/pods?includeObject=Metadata&watch=true&allowWatchBookmarks=true": 1,
	// the key bar (kube.Cluster.Can): which verbs the user may use on the table's pods, one rules review of
	// the namespace for all of them.
	"create /apis/authorization.k8s.io/v1/selfsubjectrulesreviews": 1,
	// the CPU and memory columns, once the table has synced: the pods' usage (metrics.k8s.io), and their
	// requests and limits (kube.Cluster.WatchPodResources, protobuf: a list and its watch).
	"list /apis/metrics.k8s.io/v1beta1/namespaces/NS/pods":                 1,
	"list /api/v1/namespaces/NS/pods?limit=500":                            1,
	"watch /api/v1/namespaces/NS/pods?watch=true&allowWatchBookmarks=true": 1,
}

// requestName names a request by its verb, path (the test's namespace as NS) and the query parameters that
// tell requests of one path apart (watch, includeObject, sendInitialEvents, limit, continue).
func requestName(ev auditEvent, ns string) string {
	u, err := url.Parse(ev.URI)
	if err != nil {
		return ev.Verb + " " + ev.URI
	}
	segments := strings.Split(u.Path, "/")
	for i, seg := range segments {
		if seg == ns {
			segments[i] = "NS"
		}
	}
	name := ev.Verb + " " + strings.Join(segments, "/")
	q := u.Query()
	var tell []string
	for _, k := range []string{"includeObject", "sendInitialEvents", "limit", "continue", "watch", "allowWatchBookmarks"} {
		if v := q.Get(k); v != "" {
			if k == "continue" {
				v = "…"
			}
			tell = append(tell, k+"="+v)
		}
	}
	if len(tell) > 0 {
		name += "?" + strings.Join(tell, "&")
	}
	return name
}
