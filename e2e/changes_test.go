//go:build e2e

package e2e

import (
	"slices"
	"strings"
	"testing"
)

// TestUIChanges: `:changes` in a namespace lists nothing of the objects as they were (the first list is no
// change), then, live, a patch by a named field manager (OP updated, that MANAGER, FIELDS data), a creation and a
// deletion, newest first; the title counts against the bound; `/` filters by manager; enter opens the
// object's history with the change the feed saw.
func TestUIChanges(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "configmap", "cfg", "--from-literal=a=1")
	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("configmaps(" + ns + ")")
	s.typeText(":changes")
	s.keys("Enter")
	s.waitFor("changes("+ns+")[0 of max 2000]", "no change yet")
	// every kind listed (the status line stops saying "listing"): what happens now is a change
	s.waitUntil("every kind listed", func(scr string) bool {
		return strings.Contains(scr, "objects watched") && !strings.Contains(scr, "listing ")
	})

	applyYAML(t, "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: lock, namespace: "+ns+"}\n"+
		"spec: {holderIdentity: one, leaseDurationSeconds: 10}\n")
	kubectl(t, "-n", ns, "patch", "configmap", "cfg", "--field-manager=e2e-patcher", "-p", `{"data":{"a":"2"}}`)
	s.waitUntil("cfg updated by e2e-patcher in data", func(scr string) bool {
		return hasFields(lineWith(scr, " e2e-patcher "), "ConfigMap", ns, "cfg", "updated", "e2e-patcher", "data")
	})
	kubectl(t, "-n", ns, "create", "configmap", "made", "--from-literal=x=1")
	s.waitUntil("made created", func(scr string) bool {
		return hasFields(lineWith(scr, " made "), "ConfigMap", ns, "made", "created", "kubectl-create", "data")
	})
	kubectl(t, "-n", ns, "delete", "configmap", "made")
	scr := s.waitUntil("made deleted", func(scr string) bool {
		return hasFields(lineWith(scr, " deleted "), "ConfigMap", ns, "made", "deleted", "—")
	})
	rows := screenRows(scr, "MANAGER")
	if len(rows) < 3 || !strings.Contains(rows[0], " deleted ") || !strings.Contains(rows[1], " created ") ||
		!strings.Contains(rows[2], " e2e-patcher ") {
		t.Errorf("rows, newest first: %q", rows)
	}
	for _, r := range rows {
		if strings.Contains(r, " cfg ") && strings.Contains(r, " created ") {
			t.Errorf("the first list showed as a change: %q", r)
		}
		if strings.Contains(r, " Lease ") {
			t.Errorf("a lease in the feed (leases are left out but for kind=leases): %q", r)
		}
	}

	s.typeText("/e2e-patcher")
	s.keys("Enter")
	s.waitFor("</e2e-patcher>")
	s.keys("Enter")
	// the configmaps table below keeps the row's versions: the feed's change is told on the row of its version
	s.waitUntil("cfg's history names e2e-patcher", func(scr string) bool {
		return strings.Contains(scr, "history "+ns+"/cfg") && strings.Contains(lineWith(scr, " e2e-patcher "), "updated: data")
	})

	// kind=leases watches the leases alone
	s.keys("Escape") // the history
	s.waitFor("changes("+ns+")", "</e2e-patcher>")
	s.keys("Escape") // the filter
	s.waitGone("</e2e-patcher>")
	s.keys("Escape") // the feed
	s.waitFor("configmaps(" + ns + ")")
	s.typeText(":changes kind=leases")
	s.keys("Enter")
	s.waitFor("changes("+ns+")[0 of max 2000]", "1 objects watched")
	kubectl(t, "-n", ns, "patch", "lease", "lock", "--field-manager=e2e-elector", "--type=merge", "-p", `{"spec":{"holderIdentity":"two"}}`)
	s.waitUntil("lock updated by e2e-elector", func(scr string) bool {
		return hasFields(lineWith(scr, " e2e-elector "), "Lease", ns, "lock", "updated", "e2e-elector", "spec")
	})
}

// hasFields tells whether line holds each of words as a whole field.
func hasFields(line string, words ...string) bool {
	fields := strings.Fields(strings.Trim(line, "║│ "))
	for _, w := range words {
		found := false
		for _, f := range fields {
			if f == w {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// TestUIChangesClusters: `:changes @admin,@second NS` is one feed over both devcluster clusters: a CONTEXT
// column, a word per cluster on the status line, the bound each cluster's; a patch in the second cluster by
// a named field manager shows with CONTEXT second, one in the first with CONTEXT admin, newest first; enter on
// the second cluster's row opens that object's history in the second cluster (the header names it).
func TestUIChangesClusters(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	secondNamespace(t, ns)
	kubectl(t, "-n", ns, "create", "configmap", "cfg", "--from-literal=a=1")
	kubectl(t, "--context", "second", "-n", ns, "create", "configmap", "cfg", "--from-literal=a=1")
	s := startUI(t, "-n", ns, "configmaps")
	s.waitFor("configmaps(" + ns + ")")
	s.typeText(":changes @admin,@second " + ns)
	s.keys("Enter")
	s.waitFor("changes @admin,@second("+ns+")[0 of max 2000 per cluster]", "CONTEXT")
	// both clusters listed every kind: what happens now is a change
	s.waitUntil("both clusters watching", func(scr string) bool {
		return strings.Contains(scr, "admin watching") && strings.Contains(scr, "second watching")
	})

	kubectl(t, "--context", "second", "-n", ns, "patch", "configmap", "cfg", "--field-manager=e2e-second", "-p", `{"data":{"a":"2"}}`)
	s.waitUntil("the second cluster's cfg updated by e2e-second", func(scr string) bool {
		return hasFields(lineWith(scr, " e2e-second "), "second", "ConfigMap", ns, "cfg", "updated", "e2e-second", "data")
	})
	kubectl(t, "-n", ns, "patch", "configmap", "cfg", "--field-manager=e2e-admin", "-p", `{"data":{"a":"3"}}`)
	scr := s.waitUntil("the first cluster's cfg updated by e2e-admin", func(scr string) bool {
		return hasFields(lineWith(scr, " e2e-admin "), "admin", "ConfigMap", ns, "cfg", "updated", "e2e-admin", "data")
	})
	rows := screenRows(scr, "MANAGER")
	if len(rows) < 2 || !hasFields(rows[0], "admin", "e2e-admin") || !slices.ContainsFunc(rows[1:], func(r string) bool {
		return hasFields(r, "second", "e2e-second")
	}) {
		t.Errorf("rows, newest first: %q", rows)
	}

	s.typeText("/e2e-second")
	s.keys("Enter")
	s.waitFor("</e2e-second>")
	s.keys("Enter")
	s.waitUntil("cfg's history in the second cluster names e2e-second", func(scr string) bool {
		return strings.Contains(scr, "Context: second") && strings.Contains(scr, "history "+ns+"/cfg") &&
			strings.Contains(lineWith(scr, " e2e-second "), "updated: data") && !strings.Contains(scr, "e2e-admin")
	})
}
