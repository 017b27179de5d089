//go:build e2e

package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReliabilityRBACViewerForbiddenViews: the viewer may only get, list and watch pods in one namespace
// (a Role and RoleBinding there). bin/kscope --context viewer starts, the picker works, the allowed view
// shows the pods; another namespace's pods and a cluster-scoped resource say "forbidden" in the server's
// words, without a crash and without retrying: over 10 s of an open forbidden view the viewer's requests
// stay within a small bound (audit log).
func TestReliabilityRBACViewerForbiddenViews(t *testing.T) {
	serial(t, "counts the viewer's kscope requests in the audit log")
	ns := testNamespace(t)
	seedPods(t, ns)
	kubectl(t, "-n", ns, "create", "role", "pod-reader", "--verb=get,list,watch", "--resource=pods")
	kubectl(t, "-n", ns, "create", "rolebinding", "viewer-reads-pods", "--role=pod-reader", "--user=viewer")

	ui := startUI(t, "--context", "viewer", "-n", ns)
	ui.waitFor("resources[", "pods", "Context: viewer")
	ui.typeText("pods")
	ui.keys("Enter")
	ui.waitFor("pods("+ns+")[3]", "solo", "synced")

	opened := time.Now()
	forbidden := []struct {
		command, title, message string
	}{
		{"ns shop", "pods(shop)",
			`pods is forbidden: User "viewer" cannot list resource "pods" in API group "" in the namespace "shop"`},
		{"nodes", "nodes",
			`nodes is forbidden: User "viewer" cannot list resource "nodes" in API group "" at the cluster scope`},
		{"deploy", "deployments(shop)",
			`deployments.apps is forbidden: User "viewer" cannot list resource "deployments" in API group "apps" in the namespace "shop"`},
	}
	for _, f := range forbidden {
		ui.typeText(":" + f.command)
		ui.keys("Enter")
		scr := ui.waitFor(f.title+"[0]", "forbidden: "+f.message[:30])
		if !strings.Contains(strings.Join(strings.Fields(scr), " "), f.message) {
			t.Errorf(":%s: the screen lacks the server's words %q:\n%s", f.command, f.message, scr)
		}
		// In the table area (its first line), not only on the status line; the line may be cut at the border.
		if !inTableArea(scr, "forbidden: "+f.message[:60]) {
			t.Errorf(":%s: the table area does not say it:\n%s", f.command, scr)
		}
		if strings.Contains(scr, "KSCOPE-EXIT") || strings.Contains(scr, "goroutine ") {
			t.Fatalf(":%s: kscope ended:\n%s", f.command, scr)
		}
	}
	// The last view (deployments) stays open: the viewer's requests over 10 s, once its refused list is in the
	// audit log and the requests that opening views can start (the catalog's discovery re-reads, ≤ 3 s on a
	// quiet machine) have died down.
	waitRequestsSettled(t, "viewer", opened, 5*time.Second, "the refused request for deployments", func(ev auditEvent) bool {
		return ev.ObjectRef != nil && ev.ObjectRef.Resource == "deployments"
	})
	from := time.Now()
	time.Sleep(10 * time.Second) // the measurement window
	reqs := auditRequests(t, "viewer", "kscope", from, time.Now())
	t.Logf("viewer's requests over 10 s of an open forbidden view: %d (%s)", len(reqs), describeRequests(reqs))
	for _, ev := range reqs {
		if ev.ObjectRef != nil && ev.ObjectRef.Resource == "deployments" {
			t.Errorf("the forbidden view retried: %s %s", ev.Verb, ev.URI)
		}
	}
	if len(reqs) > 3 {
		t.Errorf("%d requests in 10 s of a forbidden view (retry storm?): %s", len(reqs), describeRequests(reqs))
	}
	// Back to the allowed view: it works as before.
	ui.typeText(":ns " + ns)
	ui.keys("Enter")
	ui.typeText(":pods")
	ui.keys("Enter")
	ui.waitFor("pods("+ns+")[3]", "synced")
	ui.typeText("q")
	ui.waitFor("KSCOPE-EXIT=0")
	all := auditRequests(t, "viewer", "kscope", from.Add(-time.Minute), time.Now())
	t.Logf("viewer's requests during the whole session: %d (%s)", len(all), describeRequests(all))
}

// waitRequestsSettled waits until the audit log holds a request of user's kscope received since from that
// landed accepts (what), and no request of it received in the last quiet. It fails t after 60 s with the
// requests it saw. It reads the log again only when the quiet could have passed (the log can be large).
func waitRequestsSettled(t *testing.T, user string, from time.Time, quiet time.Duration, what string, landed func(auditEvent) bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		reqs := auditRequests(t, user, "kscope", from, time.Now().Add(time.Hour))
		wait := 200 * time.Millisecond // for the landed request to reach the log
		if slices.ContainsFunc(reqs, landed) {
			last := from
			for _, ev := range reqs {
				if ev.Received.After(last) {
					last = ev.Received
				}
			}
			if wait = time.Until(last.Add(quiet)); wait <= 0 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after 60 s waiting for %s and then %v without a request of %s's kscope; since %s: %s",
				what, quiet, user, from.Format(time.TimeOnly), describeRequests(reqs))
		}
		time.Sleep(max(wait, 200*time.Millisecond))
	}
}

// inTableArea tells whether a line inside the table's border (│ or ║) contains text.
func inTableArea(scr, text string) bool {
	for _, l := range strings.Split(scr, "\n") {
		if (strings.HasPrefix(l, "│") || strings.HasPrefix(l, "║")) && strings.Contains(l, text) {
			return true
		}
	}
	return false
}
