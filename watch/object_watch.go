package watch

import (
	"context"
	"fmt"
	"math"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"kscope/spawn"
)

// objectBackoff gives WatchObject's waits after consecutive errors: 500 ms doubling to at most 30 s. A
// successful request starts it over.
func objectBackoff() wait.Backoff {
	return wait.Backoff{Duration: 500 * time.Millisecond, Factor: 2, Steps: math.MaxInt32, Cap: 30 * time.Second}
}

// WatchObject streams one object's full state until ctx ends: a GET, then a watch on that one object
// (reconnecting from the last resourceVersion, re-reading it after 410 Gone). The returned channel keeps only
// the latest unread event, so a slow reader never blocks the watch; it is closed when ctx ends.
// A deletion is sent as Deleted with the last state; the watch goes on, so a re-created object shows up again.
// Errors (including NotFound before the object exists) are sent as Err and retried with a growing delay.
// The watch runs on a goroutine start starts.
func WatchObject(ctx context.Context, client dynamic.Interface, gvr schema.GroupVersionResource, namespace, name string, start spawn.Func) <-chan ObjectEvent {
	out := make(chan ObjectEvent, 1)
	w := &objectWatch{res: client.Resource(gvr).Namespace(namespace), gvr: gvr, name: name, out: out,
		backoff: objectBackoff()}
	start.Go(func() {
		defer close(out)
		w.run(ctx)
	})
	return out
}

type objectWatch struct {
	res     dynamic.ResourceInterface
	gvr     schema.GroupVersionResource
	name    string
	out     chan ObjectEvent
	backoff wait.Backoff // the waits after consecutive errors (objectBackoff)
}

// send replaces any unread event with ev. Only this goroutine sends, so the second send cannot block.
func (w *objectWatch) send(ev ObjectEvent) {
	select {
	case w.out <- ev:
		return
	default:
	}
	select {
	case <-w.out:
	default:
	}
	w.out <- ev
}

// run reads and follows the object until ctx ends. Each error is sent, then retried after w.backoff's next
// wait; requests that succeed follow each other at once and start the backoff over.
func (w *objectWatch) run(ctx context.Context) {
	rv := ""
	backoff := w.backoff
	delay := wait.DelayFunc(func() time.Duration { return backoff.Step() })
	_ = delay.Until(ctx, true, true, func(ctx context.Context) (bool, error) {
		for {
			var err error
			if rv == "" {
				rv, err = w.get(ctx)
			} else {
				rv, err = w.watch(ctx, rv)
			}
			if ctx.Err() != nil {
				return true, nil
			}
			if err != nil {
				w.send(ObjectEvent{Err: err})
				return false, nil
			}
			backoff = w.backoff
		}
	})
}

// get reads the object and returns its resourceVersion.
func (w *objectWatch) get(ctx context.Context) (string, error) {
	obj, err := w.res.Get(ctx, w.name, metav1.GetOptions{})
	if err != nil {
		return "", fmt.Errorf("get %s %q: %w", w.gvr.Resource, w.name, err)
	}
	w.send(ObjectEvent{Object: obj})
	return obj.GetResourceVersion(), nil
}

// watch follows the object from rv until the watch ends; it returns the last resourceVersion seen, or "" when
// the object must be read again (410 Gone).
func (w *objectWatch) watch(ctx context.Context, rv string) (string, error) {
	wi, err := w.res.Watch(ctx, metav1.ListOptions{
		FieldSelector:       fields.OneTermEqualSelector("metadata.name", w.name).String(),
		ResourceVersion:     rv,
		AllowWatchBookmarks: true,
	})
	if err != nil {
		if apierrors.IsGone(err) || apierrors.IsResourceExpired(err) {
			return "", nil
		}
		return rv, fmt.Errorf("watch %s %q: %w", w.gvr.Resource, w.name, err)
	}
	defer wi.Stop()
	for {
		select {
		case <-ctx.Done():
			return rv, nil
		case ev, ok := <-wi.ResultChan():
			if !ok {
				return rv, nil
			}
			if ev.Type == watch.Error {
				err := apierrors.FromObject(ev.Object)
				if apierrors.IsGone(err) || apierrors.IsResourceExpired(err) {
					return "", nil
				}
				return rv, fmt.Errorf("watch %s %q: %w", w.gvr.Resource, w.name, err)
			}
			obj, ok := ev.Object.(*unstructured.Unstructured)
			if !ok {
				continue
			}
			rv = obj.GetResourceVersion()
			switch ev.Type {
			case watch.Added, watch.Modified:
				w.send(ObjectEvent{Object: obj})
			case watch.Deleted:
				w.send(ObjectEvent{Object: obj, Deleted: true})
			}
		}
	}
}
