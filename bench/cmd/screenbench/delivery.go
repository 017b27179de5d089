package main

import (
	"context"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
)

// deliveries watches the probe pods, one bare watch a pod (by name), and records when each probe's marker
// first arrives: the server's own delivery of a change under the same churn, beside which a tool's change →
// screen is read (a tool cannot show a change before the server sends it). Safe for concurrent use.
type deliveries struct {
	mu     sync.Mutex
	at     map[string]time.Time // marker → first arrival
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// watchProbes starts a watch on each probe pod in the bench's namespace; stop ends them.
func (b *bench) watchProbes(probes []string) (*deliveries, error) {
	ctx, cancel := context.WithCancel(context.Background())
	d := &deliveries{at: map[string]time.Time{}, cancel: cancel}
	pods := b.client.CoreV1().Pods(b.namespace)
	for _, name := range probes {
		w, err := pods.Watch(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("metadata.name", name).String()})
		if err != nil {
			d.stop()
			return nil, err
		}
		d.done.Add(1)
		go d.follow(ctx, w)
	}
	return d, nil
}

// follow records the markers of w's events until ctx ends.
func (d *deliveries) follow(ctx context.Context, w watch.Interface) {
	defer d.done.Done()
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.ResultChan():
			if !ok {
				return
			}
			now := time.Now()
			if pod, isPod := ev.Object.(*corev1.Pod); isPod && strings.HasPrefix(pod.Status.Reason, "P") {
				d.mu.Lock()
				if _, seen := d.at[pod.Status.Reason]; !seen {
					d.at[pod.Status.Reason] = now
				}
				d.mu.Unlock()
			}
		}
	}
}

// arrived returns when marker first arrived, if it did.
func (d *deliveries) arrived(marker string) (time.Time, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, ok := d.at[marker]
	return t, ok
}

// stop ends the watches.
func (d *deliveries) stop() {
	d.cancel()
	d.done.Wait()
}
