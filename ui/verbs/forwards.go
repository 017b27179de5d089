package verbs

import (
	"context"
	"fmt"
	"net"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/forwards"
)

// forward starts forwarding local (0: any free port) to podPort of pod in the background and says how it
// went; the forward is listed in :pf until stopped there. UI goroutine.
func (v *Verbs) forward(pod *corev1.Pod, local, podPort int) {
	target := fmt.Sprintf("%s/%s:%d", pod.Namespace, pod.Name, podPort)
	v.Message("forwarding to " + target + " …")
	conn := v.Cluster()
	ctx, cancel := context.WithCancel(v.Context())
	v.Go(func() {
		port, ended, err := conn.PortForward(ctx, cluster.PortForwardRequest{Namespace: pod.Namespace, Pod: pod.Name,
			Address: forwardAddress, LocalPort: local, PodPort: podPort})
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
			f := v.Forwards().Add(net.JoinHostPort(forwardAddress, strconv.Itoa(port)), target, v.Clock().Now(), cancel)
			v.Message(fmt.Sprintf("forwarding %s → %s (:pf lists the forwards)", f.Local, target))
			v.Go(func() {
				err := <-ended
				v.Update(func() { v.forwardEnded(f, err) })
			})
		})
	})
}

// forwardEnded marks f as over, with err as the reason (nil: stopped).
func (v *Verbs) forwardEnded(f *forwards.Forward, err error) {
	why := ""
	if err != nil {
		why = apierr.OneLine(err.Error())
	}
	if v.Forwards().End(f, why) && err != nil {
		v.Errorf("port-forward %s → %s ended: %s", f.Local, f.Target, why)
	}
}
