package ui

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"

	"kscope/apierr"
)

// portForward is one forward the user started: where it listens, what it reaches, since when, and how it
// stands. UI goroutine only.
type portForward struct {
	local  string // 127.0.0.1:8080
	target string // shop/web-abc:8080
	since  time.Time
	// ended is set once the forward is over; why is "" when the user (or a context switch) stopped it.
	ended bool
	why   string
	stop  context.CancelFunc
}

// state is the STATE column: active, stopped, or why it ended.
func (f *portForward) state() string {
	switch {
	case !f.ended:
		return "active"
	case f.why == "":
		return "stopped"
	}
	return "ended: " + f.why
}

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
			f := &portForward{local: net.JoinHostPort(forwardAddress, strconv.Itoa(port)), target: target,
				since: a.opts.Clock.Now(), stop: cancel}
			a.forwards = append(a.forwards, f)
			a.message(fmt.Sprintf("forwarding %s → %s (:pf lists the forwards)", f.local, target))
			a.forwardsChanged()
			a.goSafe(func() {
				err := <-ended
				a.tv.QueueUpdateDraw(func() { a.forwardEnded(f, err) })
			})
		})
	})
}

// forwardEnded marks f as over, with err as the reason (nil: stopped).
func (a *App) forwardEnded(f *portForward, err error) {
	if f.ended {
		return
	}
	f.ended = true
	if err != nil {
		f.why = apierr.OneLine(err.Error())
		a.errorf("port-forward %s → %s ended: %s", f.local, f.target, f.why)
	}
	a.forwardsChanged()
}

// stopForward stops f (its port is freed) and removes it from the list.
func (a *App) stopForward(f *portForward) {
	f.stop()
	f.ended = true
	for i, g := range a.forwards {
		if g == f {
			a.forwards = append(a.forwards[:i], a.forwards[i+1:]...)
			break
		}
	}
	a.forwardsChanged()
}

// stopForwards stops every forward (kscope quits, or the context switches: they reach the old cluster).
func (a *App) stopForwards() {
	for _, f := range a.forwards {
		f.stop()
		f.ended = true
	}
	a.forwards = nil
}

// forwardsObserver is a view that shows the forwards: it is told when they change. UI goroutine.
type forwardsObserver interface {
	forwardsChanged()
}

// forwardsChanged tells the views that show the forwards (the :pf view, wherever it is in the stack) that
// they changed; the status line follows when such a view is on top.
func (a *App) forwardsChanged() {
	for _, v := range a.stack {
		if o, ok := v.(forwardsObserver); ok {
			o.forwardsChanged()
			a.updateStatus(v)
		}
	}
}
