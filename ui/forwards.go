package ui

import (
	"context"
	"fmt"
	"net"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"kscope/apierr"
	"kscope/forwards"
)

// forward starts forwarding local (0: any free port) to podPort of pod in the background and says how it
// went; the forward is listed in :pf until stopped there. UI goroutine.
func (a *App) forward(pod *corev1.Pod, local, podPort int) {
	target := fmt.Sprintf("%s/%s:%d", pod.Namespace, pod.Name, podPort)
	a.message("forwarding to " + target + " …")
	cluster := a.cluster
	ctx, cancel := context.WithCancel(a.ctx)
	a.goSafe(func() {
		port, ended, err := cluster.PortForward(ctx, PortForwardRequest{Namespace: pod.Namespace, Pod: pod.Name,
			Address: forwardAddress, LocalPort: local, PodPort: podPort})
		a.tv.QueueUpdateDraw(func() {
			if err != nil {
				cancel()
				a.errorf("%s", apierr.OneLine(err.Error()))
				return
			}
			if a.cluster != cluster { // the context switched meanwhile: its forwards are stopped
				cancel()
				return
			}
			f := a.forwards.Add(net.JoinHostPort(forwardAddress, strconv.Itoa(port)), target, a.opts.Clock.Now(), cancel)
			a.message(fmt.Sprintf("forwarding %s → %s (:pf lists the forwards)", f.Local, target))
			a.goSafe(func() {
				err := <-ended
				a.tv.QueueUpdateDraw(func() { a.forwardEnded(f, err) })
			})
		})
	})
}

// forwardEnded marks f as over, with err as the reason (nil: stopped).
func (a *App) forwardEnded(f *forwards.Forward, err error) {
	why := ""
	if err != nil {
		why = apierr.OneLine(err.Error())
	}
	if a.forwards.End(f, why) && err != nil {
		a.errorf("port-forward %s → %s ended: %s", f.Local, f.Target, why)
	}
}

// openPortForwards pushes the list of forwards (`:pf`), when the screen is registered (TableScreens).
func (a *App) openPortForwards() {
	if open := a.opts.Screens.Forwards; open != nil {
		a.push(open(a, &a.forwards))
	}
}
