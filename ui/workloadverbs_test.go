package ui

import (
	"slices"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// startOnCronJobs starts on the cronjobs table of the fixture (shop/nightly).
func startOnCronJobs(t *testing.T) *harness {
	h := start(t, 120, 30, func(o *Options) {
		withCronJobs(o.Cluster.(*fakeCluster))
		o.Resource = "cronjobs"
	})
	h.eventually("nightly")
	return h
}

// TestTriggerCronJob: shift-t asks first (Cancel focused), then creates a Job and names it.
func TestTriggerCronJob(t *testing.T) {
	h := startOnCronJobs(t)
	h.press(tcell.KeyRune, 'T')
	h.waitDialog("Trigger cronjob nightly?")
	h.press(tcell.KeyEnter, 0)
	if len(writes(h)) != 0 {
		t.Fatalf("Cancel triggered: %q", writes(h))
	}
	h.press(tcell.KeyRune, 'T')
	h.waitDialog("a Job is created from its template now")
	h.burst("\t\n")
	h.eventually("triggered cronjob shop/nightly: job nightly-manual-abcde created")
	if w := writes(h); !slices.Equal(w, []string{"trigger cronjobs/shop/nightly"}) {
		t.Errorf("writes %q", w)
	}
}

// TestSuspendAndResumeCronJob: s on a cronjob (not scale) reads it, then asks to suspend it, or to resume it
// once it is suspended.
func TestSuspendAndResumeCronJob(t *testing.T) {
	h := startOnCronJobs(t)
	h.press(tcell.KeyRune, 's')
	h.waitDialog("Suspend cronjob nightly?")
	h.burst("\t\n")
	h.eventually("suspended cronjob shop/nightly")
	h.quietly(func() {
		h.cluster.mu.Lock()
		h.cluster.objects["cronjobs/shop/nightly"].Object["spec"].(map[string]any)["suspend"] = true
		h.cluster.mu.Unlock()
	})
	h.press(tcell.KeyRune, 's')
	h.waitDialog("Resume cronjob nightly?")
	h.burst("\t\n")
	h.eventually("resumed cronjob shop/nightly")
	want := []string{"suspend cronjobs/shop/nightly true", "suspend cronjobs/shop/nightly false"}
	if w := writes(h); !slices.Equal(w, want) {
		t.Errorf("writes %q, want %q", w, want)
	}
}

// TestKillPod: ctrl-k on a pod asks first, then deletes it at once with its UID.
func TestKillPod(t *testing.T) {
	h := start(t, 120, 30, func(o *Options) { o.Resource = "pods" })
	h.press(tcell.KeyRune, '/')
	h.typeText("web-7d9f-abcde\n")
	h.press(tcell.KeyCtrlK, 0)
	h.waitDialog("Kill pod web-7d9f-abcde?")
	h.contains("grace period 0")
	h.burst("\t\n")
	h.eventually("killed pod shop/web-7d9f-abcde")
	if w := writes(h); !slices.Equal(w, []string{"kill pods/shop/web-7d9f-abcde uid-web-7d9f-abcde"}) {
		t.Errorf("writes %q", w)
	}
}

// TestSetImage: shift-i asks the new image of the pod's one container (its image to start from), then
// confirms; on a cronjob with an init container it asks which container first.
func TestSetImage(t *testing.T) {
	h := start(t, 120, 30, func(o *Options) {
		withCronJobs(o.Cluster.(*fakeCluster))
		o.Resource = "pods"
	})
	h.press(tcell.KeyRune, '/')
	h.typeText("web-7d9f-abcde\n")
	h.press(tcell.KeyRune, 'I')
	h.eventually("image of container web of pods web-7d9f-abcde: nginx:1.27")
	h.press(tcell.KeyCtrlU, 0)
	h.typeText("nginx:1.28\n")
	h.waitDialog("Set the image of container web") // (the dialog wraps its lines)
	h.contains("nginx:1.27 → nginx:1.28")
	h.burst("\t\n")
	h.eventually("set the image of web in pods shop/web-7d9f-abcde to nginx:1.28")

	h.command("cronjobs")
	h.eventually("nightly")
	h.press(tcell.KeyRune, 'I')
	h.waitDialog("set the image of which container?")
	h.contains("setup (init)  busybox:1.36")
	h.press(tcell.KeyUp, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("image of container setup of cronjobs nightly: busybox:1.36")
	h.press(tcell.KeyCtrlU, 0)
	h.typeText("busybox:1.37\n")
	h.waitDialog("Set the image of container setup")
	h.burst("\t\n")
	h.eventually("to busybox:1.37")
	want := []string{"set-image pods/shop/web-7d9f-abcde web nginx:1.28", "set-image cronjobs/shop/nightly setup busybox:1.37"}
	if w := writes(h); !slices.Equal(w, want) {
		t.Errorf("writes %q, want %q", w, want)
	}
}

// TestLabelsAndAnnotations: shift-l asks labels or annotations, shows the current ones, takes kubectl
// label's arguments, confirms the changes (Cancel focused) and patches them with the object's UID.
func TestLabelsAndAnnotations(t *testing.T) {
	h := start(t, 140, 30, func(o *Options) { o.Resource = "deployments" })
	h.eventually("web")
	h.press(tcell.KeyRune, 'L')
	h.waitDialog("change which of web")
	h.press(tcell.KeyEnter, 0) // labels
	h.eventually("labels of deployments web [app=web] (KEY=VALUE sets, KEY- removes):")
	h.typeText("tier=front app-\n")
	h.waitDialog("Change the labels of deployments web?")
	h.contains("+ tier=front")
	h.contains("- app (was web)")
	h.press(tcell.KeyEnter, 0) // Cancel
	if len(writes(h)) != 0 {
		t.Fatalf("Cancel wrote: %q", writes(h))
	}
	h.press(tcell.KeyRune, 'L')
	h.waitDialog("change which of web")
	h.press(tcell.KeyDown, 0) // annotations
	h.press(tcell.KeyEnter, 0)
	h.eventually("annotations of deployments web [] (KEY=VALUE sets, KEY- removes):")
	h.typeText(`note="two words"` + "\n")
	h.waitDialog("+ note=two words")
	h.burst("\t\n")
	h.eventually("changed the annotations of deployments shop/web")
	h.press(tcell.KeyRune, 'L')
	h.waitDialog("change which of web")
	h.press(tcell.KeyEnter, 0)
	h.eventually("labels of deployments web")
	h.typeText("nope-\n")
	h.eventually("there is no label nope to remove")
	if w := writes(h); !slices.Equal(w, []string{"label deployments/shop/web annotations note=two words"}) {
		t.Errorf("writes %q", w)
	}
}
