package ui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/cluster"
)

// startOnNodes starts on the nodes table of the fixture (kwok-node-0 selected).
func startOnNodes(t *testing.T, opts func(*fakeCluster)) *harness {
	return start(t, 120, 30, func(o *Options) {
		c := o.Cluster.(*fakeCluster)
		withNodes(c)
		if opts != nil {
			opts(c)
		}
		o.Resource = "nodes"
	})
}

// TestCordonAndUncordon: shift-c and u ask first with Cancel focused, then patch the node with its UID.
func TestCordonAndUncordon(t *testing.T) {
	h := startOnNodes(t, nil)
	h.eventually("kwok-node-0")
	h.press(tcell.KeyRune, 'C')
	h.waitDialog("Cordon node kwok-node-0?")
	h.press(tcell.KeyEnter, 0) // Cancel is focused
	if h.app.modal != nil || len(writes(h)) != 0 {
		t.Fatalf("Enter on the dialog: modal %v, writes %q", h.app.modal != nil, writes(h))
	}
	h.press(tcell.KeyRune, 'C')
	h.waitDialog("no new pod is scheduled on it")
	h.burst("\t\n")
	h.eventually("cordoned node kwok-node-0")
	h.press(tcell.KeyRune, 'u')
	h.waitDialog("Uncordon node kwok-node-0?")
	h.burst("\t\n")
	h.eventually("uncordoned node kwok-node-0")
	want := []string{"cordon nodes//kwok-node-0 true", "cordon nodes//kwok-node-0 false"}
	if w := writes(h); !slices.Equal(w, want) {
		t.Errorf("writes %q, want %q", w, want)
	}
}

// TestDrainAsksFlagsThenShowsThePlan: r on a node opens drain's dialog (not restart); Drain there reads the
// plan, the confirmation lists the pods and the warnings, and the drain's progress ends in a count.
func TestDrainAsksFlagsThenShowsThePlan(t *testing.T) {
	h := startOnNodes(t, func(c *fakeCluster) {
		c.drainPlan = cluster.DrainPlan{Evict: []string{"shop/web-1", "shop/web-2"},
			Warnings: "ignoring DaemonSet-managed Pods: kube-system/proxy-x"}
	})
	h.eventually("kwok-node-0")
	h.press(tcell.KeyRune, 'r')
	h.waitDialog("Drain node kwok-node-0")
	h.contains("Grace period")
	h.burst("\t\t\t\t\t\t\n")                       // past the five fields and Cancel: Drain
	h.waitDialog("evicted: shop/web-1, shop/web-2") // (the dialog wraps its lines)
	h.contains("ignoring DaemonSet-managed Pods: kube-")
	h.contains("grace period: each pod's own, timeout:")
	if w := writes(h); len(w) != 1 || !strings.HasPrefix(w[0], "drain-plan nodes//kwok-node-0") {
		t.Fatalf("before the confirmation: %q, want only the plan", w)
	}
	h.press(tcell.KeyEnter, 0) // Cancel is focused
	if w := writes(h); len(w) != 1 {
		t.Fatalf("Cancel drained: %q", w)
	}
	h.press(tcell.KeyRune, 'r')
	h.waitDialog("Grace period")
	h.burst("\t\t\t\t\t\t\n")
	h.waitDialog("Drain node kwok-node-0?")
	h.burst("\t\n")
	h.eventually("drained node kwok-node-0: cordoned, 2 pods evicted")
	w := writes(h)
	if len(w) != 3 || w[2] != "drain nodes//kwok-node-0 {GracePeriod:-1 Timeout:2m0s IgnoreDaemonSets:true DeleteEmptyDirData:false Force:false}" {
		t.Errorf("writes %q", w)
	}
	h.press(tcell.KeyRune, '?')
	h.contains("drain: cordon, then evict")
	h.lacks("rollout restart")
}

// TestDrainSaysWhatFailed: a refused plan is one line and nothing is written; failed evictions are listed.
func TestDrainSaysWhatFailed(t *testing.T) {
	h := startOnNodes(t, func(c *fakeCluster) {
		c.drainRefusal = errors.New("cannot drain: cannot delete Pods that declare no controller (use --force to override): shop/bare")
	})
	h.eventually("kwok-node-0")
	h.press(tcell.KeyRune, 'r')
	h.waitDialog("Grace period")
	h.burst("\t\t\t\t\t\t\n")
	h.eventually("drain node kwok-node-0: cannot drain: cannot delete Pods that declare no controller")
	if w := writes(h); len(w) != 1 {
		t.Fatalf("writes %q, want the plan only", w)
	}
	h.quietly(func() {
		c := h.cluster
		c.mu.Lock()
		c.drainRefusal = nil
		c.drainPlan = cluster.DrainPlan{Evict: []string{"shop/a", "shop/b"}}
		c.drainFails = map[string]error{"shop/b": errors.New("Cannot evict pod as it would violate the pod's disruption budget.")}
		c.mu.Unlock()
	})
	h.press(tcell.KeyRune, 'r')
	h.waitDialog("Grace period")
	h.burst("\t\t\t\t\t\t\n")
	h.waitDialog("Drain node kwok-node-0?")
	h.burst("\t\n")
	h.eventually("drain node kwok-node-0: 1 pods evicted; failed: shop/b (Cannot evict pod as it would violate")
}
