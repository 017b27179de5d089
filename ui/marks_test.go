package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/types"
)

// startOnPods shows the pods table of shop, wide enough for the outcome lines; opts may adjust the options.
func startOnPods(t *testing.T, opts func(*Options)) *harness {
	return start(t, 220, 30, func(o *Options) {
		o.Resource = "pods"
		c := o.Cluster.(*fakeCluster)
		for _, r := range c.rows["pods"] { // every pod has its object: the writes check their UIDs
			pod := podObject()
			pod.SetNamespace(r.Namespace)
			pod.SetName(r.Name)
			pod.SetUID(r.UID)
			c.objects[objectKey(podsGVR, r.Namespace, r.Name)] = pod
		}
		if opts != nil {
			opts(o)
		}
	})
}

// TestMarkedDelete: with rows marked, ctrl-d asks once (Cancel focused), listing them; each delete carries
// its row's UID, so that the pod re-created since it was marked is not deleted; the outcome line says how
// many were deleted and which one failed, and why.
func TestMarkedDelete(t *testing.T) {
	h := startOnPods(t, nil)
	h.press(tcell.KeyRune, '*')
	h.eventually("3 marked")
	h.press(tcell.KeyCtrlD, 0)
	h.waitDialog("Delete 3 pods?")
	h.contains("shop/api-5c4b-zzzzz")
	h.contains("shop/web-7d9f-fghij")
	h.press(tcell.KeyEnter, 0) // Cancel is focused
	if h.app.modal != nil || len(h.cluster.deleted()) != 0 {
		t.Fatalf("Cancel: modal %v, deletes %q", h.app.modal != nil, h.cluster.deleted())
	}
	h.press(tcell.KeyCtrlD, 0)
	h.waitDialog("Delete 3 pods?")
	h.cluster.mu.Lock() // web-7d9f-abcde is deleted and created again while the question is open
	h.cluster.objects["pods/shop/web-7d9f-abcde"].SetUID(types.UID("uid-again"))
	h.cluster.mu.Unlock()
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("deleted 2 of 3 pods; failed: shop/web-7d9f-abcde (conflict: it was re-created since shown (new UID))")
	want := []string{"pods/shop/api-5c4b-zzzzz", "pods/shop/web-7d9f-abcde", "pods/shop/web-7d9f-fghij"}
	got := h.cluster.deleted()
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("deletes %q, want one per marked row %q", got, want)
	}
	if n := countPrefix(h.cluster.recorded(), "can delete pods shop"); n != 1 {
		t.Errorf("asked %d times whether delete is allowed in shop, want once", n)
	}
}

// TestMarkedAccessPerNamespace: marked rows of several namespaces ask about each namespace; the rows of the
// one refused are not acted on, and both the question and the outcome say so.
func TestMarkedAccessPerNamespace(t *testing.T) {
	h := startOnPods(t, func(o *Options) {
		o.Cluster.(*fakeCluster).denied = map[string]bool{"kill pods data": true, "delete pods data": true}
	})
	h.press(tcell.KeyRune, '0')
	h.eventually("(all)")
	h.press(tcell.KeyRune, '*')
	h.eventually("4 marked")
	h.press(tcell.KeyCtrlK, 0)
	h.waitDialog("Kill 3 pods?")
	h.contains("not acted on: data/db-0 (not permitted (RBAC: no rule allows it))")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("killed 3 of 4 pods; failed: data/db-0 (not permitted (RBAC: no rule allows it))")
	calls := h.cluster.recorded()
	for _, ns := range []string{"shop", "data"} {
		if n := countPrefix(calls, "can delete pods "+ns); n != 1 {
			t.Errorf("asked %d times about %s, want once", n, ns)
		}
	}
	if n := countPrefix(calls, "kill "); n != 3 || slices.Contains(calls, "kill pods/data/db-0 uid-db-0") {
		t.Errorf("kills %q, want the 3 of shop", calls)
	}
}

// TestMarkedScale: scale on marked deployments asks the count once, then once to confirm; each row is scaled
// under its own read.
func TestMarkedScale(t *testing.T) {
	h := start(t, 220, 30, func(o *Options) {
		o.Resource = "deployments"
		c := o.Cluster.(*fakeCluster)
		api := deploymentObject()
		api.SetName("api")
		api.SetUID("uid-api")
		c.objects["deployments/shop/api"] = api
		c.replicas["deployments/shop/api"] = 1
		r := *c.rows["deployments"][0]
		r.Key, r.Name, r.UID = "shop/api", "api", "uid-api"
		c.rows["deployments"] = append(c.rows["deployments"], &r)
	})
	h.press(tcell.KeyRune, '*')
	h.eventually("2 marked")
	h.press(tcell.KeyRune, 's')
	h.eventually("scale 2 deployments to:")
	h.typeText("4\n")
	h.waitDialog("Scale 2 deployments to 4 replicas?")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("scaled 2 of 2 deployments")
	got := writes(h)
	slices.Sort(got)
	if want := []string{"scale deployments/shop/api 4", "scale deployments/shop/web 4"}; !slices.Equal(got, want) {
		t.Errorf("writes %q, want %q", got, want)
	}
}

// TestMarkedReadOnly: read-only mode refuses the verbs on marked rows before any question.
func TestMarkedReadOnly(t *testing.T) {
	h := startOnPods(t, func(o *Options) { o.ReadOnly = true })
	h.press(tcell.KeyRune, '*')
	h.eventually("3 marked")
	for _, k := range []tcell.Key{tcell.KeyCtrlD, tcell.KeyCtrlK} {
		h.press(k, 0)
		h.eventually("read-only mode: refusing to")
		if h.app.modal != nil {
			t.Fatalf("%v: a dialog opened", k)
		}
	}
	if w, d := writes(h), h.cluster.deleted(); len(w) != 0 || len(d) != 0 {
		t.Errorf("writes %q, deletes %q", w, d)
	}
}

// TestMarkedLabels: shift-l with rows marked asks labels or annotations and the changes once, lists the rows
// and the changes in one confirmation, and patches each row with its own UID.
func TestMarkedLabels(t *testing.T) {
	h := startOnPods(t, nil)
	h.press(tcell.KeyRune, '*')
	h.eventually("3 marked")
	h.press(tcell.KeyRune, 'L')
	h.waitDialog("change which of 3 pods")
	h.press(tcell.KeyEnter, 0) // labels
	h.eventually("labels of 3 pods (KEY=VALUE sets, KEY- removes):")
	h.typeText("tier=front old-\n")
	h.waitDialog("Change the labels of 3 pods?")
	h.contains("+ tier=front")
	h.contains("- old")
	h.burst("\t\n")
	h.eventually("changed the labels of 3 of 3 pods") // (break: labelOne writing nothing fails here)
	var got []string
	for _, c := range writes(h) {
		if strings.HasPrefix(c, "label ") {
			got = append(got, c)
		}
	}
	slices.Sort(got)
	want := []string{"label pods/shop/api-5c4b-zzzzz labels old-,tier=front", "label pods/shop/web-7d9f-abcde labels old-,tier=front",
		"label pods/shop/web-7d9f-fghij labels old-,tier=front"}
	if !slices.Equal(got, want) {
		t.Errorf("label writes %q, want %q", got, want)
	}
}
