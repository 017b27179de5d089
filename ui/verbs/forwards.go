package verbs

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"kscope/apierr"
	"kscope/forwards"
)

// forward starts forwarding local (0: any free port) to t in the background, first to podPort of pod, and says
// how it went; the forward is listed in :pf, and follows t's pods, until stopped there. UI goroutine.
func (v *Verbs) forward(t forwards.Target, pod *corev1.Pod, local, podPort int) {
	first := fmt.Sprintf("%s/%s:%d", pod.Namespace, pod.Name, podPort)
	v.Message("forwarding to " + first + " …")
	conn := v.Cluster()
	ctx, cancel := context.WithCancel(v.Context())
	req := forwards.Request{Target: t, Pod: pod, PodPort: podPort, Address: forwardAddress, LocalPort: local,
		Clock: v.Clock(), Go: v.Go}
	v.Go(func() {
		fw, err := forwards.Start(ctx, conn, req)
		v.Update(func() {
			if err != nil {
				cancel()
				v.Errorf("%s", apierr.OneLine(err.Error()))
				return
			}
			if v.Cluster() != conn { // the context switched meanwhile: its forwards are stopped
				cancel()
				return
			}
			f := v.Forwards().Add(fw.Local(), t.String(), v.Clock().Now(), cancel)
			v.Forwards().Report(f, fw.Status())
			to := first
			if t.String() != first {
				to = fmt.Sprintf("%s (now pod %s:%d)", t, pod.Name, podPort)
			}
			v.Message(fmt.Sprintf("forwarding %s → %s (:pf lists the forwards)", f.Local, to))
			v.Go(func() { v.followForward(f, fw) })
		})
	})
}

// followForward records how fw stands in f until it is over, then marks f as over. A goroutine of its own.
func (v *Verbs) followForward(f *forwards.Forward, fw *forwards.Forwarder) {
	for range fw.Changed() {
		v.Update(func() { v.Forwards().Report(f, fw.Status()) })
	}
	why := fw.Status().Why
	v.Update(func() { v.forwardEnded(f, why) })
}

// forwardEnded marks f as over, with why as the reason ("": stopped).
func (v *Verbs) forwardEnded(f *forwards.Forward, why string) {
	why = apierr.OneLine(why)
	if v.Forwards().End(f, why) && why != "" {
		v.Errorf("port-forward %s → %s ended: %s", f.Local, f.Target, why)
	}
}
