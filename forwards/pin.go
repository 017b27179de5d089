package forwards

import (
	"context"
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

var (
	servicesGVR    = schema.GroupVersionResource{Version: "v1", Resource: "services"}
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	replicaSetsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}
)

// pin is what a forward was started on, recorded once at its start, and the only pods it may ever go to: for
// a pod, that pod (its UID) or a pod of the same name its controller made (the controller's UID); for a
// workload, the pods that workload owns (for a Deployment, through its ReplicaSets); for a service, the pods
// its selector matches while the service is the one chosen (its UID). A plain value, not changed once made.
type pin struct {
	target Target
	// uid is the chosen object's: the pod's, or the workload's or service's.
	uid types.UID
	// controller is the pod's controller when the target is a pod (nil when it has none: then no other pod is
	// ever followed).
	controller *metav1.OwnerReference
}

// stopError is why a forward stops rather than tries again: what it follows is gone for good or was replaced
// (its UID changed), and going on to another pod would be a move the user did not choose. It names the object
// without its namespace (the forward's target, beside it in :pf, has it), short enough for :pf's STATE.
type stopError struct{ why string }

func (e *stopError) Error() string { return e.why }

// stopping tells whether err is a stopError.
func stopping(err error) bool {
	var s *stopError
	return errors.As(err, &s)
}

// pinTo records what a forward of t started on first pins: first's UID and controller for a pod; for a
// service or a workload, its UID as read now, first being checked to be one of its pods (a pod with its labels
// owned by someone else is refused).
func pinTo(ctx context.Context, c Cluster, t Target, first *corev1.Pod) (pin, error) {
	if t.byName() {
		return pin{target: t, uid: first.UID, controller: metav1.GetControllerOf(first)}, nil
	}
	u, err := c.Get(ctx, t.GVR, t.Namespace, t.Name)
	if err != nil {
		return pin{}, fmt.Errorf("read %s %s/%s: %w", t.Kind, t.Namespace, t.Name, err)
	}
	p := pin{target: t, uid: u.GetUID()}
	var sel labels.Selector
	if t.GVR == servicesGVR {
		svc, err := ReadService(u)
		if err != nil {
			return pin{}, err
		}
		sel = labels.SelectorFromSet(svc.Spec.Selector)
	}
	if !p.owns(ctx, c, sel, first, map[types.UID]types.UID{}) {
		return pin{}, fmt.Errorf("pod %s is not a pod of %s %s/%s", first.Name, t.Kind, t.Namespace, t.Name)
	}
	return p, nil
}

// follows says what the forward follows, as :pf shows it: "pod db-0 of statefulset db (uid 3f2a…)", "pod
// solo only (uid …)", "pods of deployment web (uid …)", "pods selected by service web (uid …)".
func (p pin) follows() string {
	switch {
	case p.target.byName() && p.controller != nil:
		return fmt.Sprintf("pod %s of %s %s (uid %s)", p.target.Name, strings.ToLower(p.controller.Kind), p.controller.Name,
			short(p.controller.UID))
	case p.target.byName():
		return fmt.Sprintf("pod %s only (uid %s)", p.target.Name, short(p.uid))
	case p.target.GVR == servicesGVR:
		return fmt.Sprintf("pods selected by service %s (uid %s)", p.target.Name, short(p.uid))
	}
	return fmt.Sprintf("pods of %s %s (uid %s)", p.target.Kind, p.target.Name, short(p.uid))
}

// short is the start of uid, enough to tell two apart on screen.
func short(uid types.UID) string {
	if len(uid) > 8 {
		return string(uid[:8]) + "…"
	}
	return string(uid)
}

// candidates returns the pods a forward may go to now, of those found for the target, the most active first,
// and for a service the service as read (its UID checked). A stopError when what the forward follows was
// replaced: a pod of its name not its own, a workload or service of its name with another UID.
func (p pin) candidates(ctx context.Context, c Cluster) ([]corev1.Pod, *corev1.Service, error) {
	t := p.target
	var svc *corev1.Service
	var sel labels.Selector
	if !t.byName() {
		u, err := c.Get(ctx, t.GVR, t.Namespace, t.Name)
		if err != nil {
			return nil, nil, err
		}
		if u.GetUID() != p.uid {
			return nil, nil, &stopError{fmt.Sprintf("%s %s was re-created (uid changed)", t.Kind, t.Name)}
		}
		if t.GVR == servicesGVR {
			if svc, err = ReadService(u); err != nil {
				return nil, nil, err
			}
			sel = labels.SelectorFromSet(svc.Spec.Selector)
		}
	}
	pods, err := c.PodsFor(ctx, t.GVR, t.Namespace, t.Name)
	if err != nil {
		return nil, nil, err
	}
	if t.byName() {
		pods, err := p.samePod(pods)
		return pods, nil, err
	}
	rsOwner := map[types.UID]types.UID{} // a ReplicaSet's controller, read once per attempt
	var out []corev1.Pod
	for i := range pods {
		if p.owns(ctx, c, sel, &pods[i], rsOwner) {
			out = append(out, pods[i])
		}
	}
	return out, svc, nil
}

// samePod judges the pod of the target's name (pods: none or that one) for a pod's forward: the pod first
// forwarded to, or one its controller made; a stopError when it is gone and had no controller, or when the pod
// of that name now is someone else's.
func (p pin) samePod(pods []corev1.Pod) ([]corev1.Pod, error) {
	t := p.target
	if len(pods) == 0 {
		if p.controller == nil {
			return nil, &stopError{fmt.Sprintf("pod %s was deleted, and it had no controller to re-create it", t.Name)}
		}
		return nil, nil
	}
	pod := &pods[0]
	if pod.UID == p.uid {
		return pods[:1], nil
	}
	if p.controller == nil {
		return nil, &stopError{fmt.Sprintf("pod %s was re-created (uid changed), and it had no controller", t.Name)}
	}
	if c := metav1.GetControllerOf(pod); c == nil || c.UID != p.controller.UID {
		return nil, &stopError{fmt.Sprintf("pod %s was re-created outside %s %s (uid changed)", t.Name,
			strings.ToLower(p.controller.Kind), p.controller.Name)}
	}
	return pods[:1], nil
}

// owns tells whether pod is one a forward of a service or a workload may go to: for a service, a pod its
// selector (sel, of the service whose UID was checked) matches; for a workload, a pod whose controller is the
// workload or, for a Deployment, a ReplicaSet whose controller is the deployment (read through the API, the
// ReplicaSet of that name having the UID the pod names; rsOwner keeps the answers of this attempt, by that
// UID; a ReplicaSet that cannot be read owns nothing).
func (p pin) owns(ctx context.Context, c Cluster, sel labels.Selector, pod *corev1.Pod, rsOwner map[types.UID]types.UID) bool {
	if p.target.GVR == servicesGVR {
		return sel != nil && !sel.Empty() && sel.Matches(labels.Set(pod.Labels))
	}
	ref := metav1.GetControllerOf(pod)
	switch {
	case ref == nil:
		return false
	case ref.UID == p.uid:
		return true
	case p.target.GVR != deploymentsGVR || ref.Kind != "ReplicaSet" || !strings.HasPrefix(ref.APIVersion, "apps/"):
		return false
	}
	owner, seen := rsOwner[ref.UID]
	if !seen {
		rs, err := c.Get(ctx, replicaSetsGVR, p.target.Namespace, ref.Name)
		if err == nil && rs.GetUID() == ref.UID {
			if rc := metav1.GetControllerOfNoCopy(rs); rc != nil && rc.Kind == "Deployment" {
				owner = rc.UID
			}
		}
		rsOwner[ref.UID] = owner
	}
	return owner != "" && owner == p.uid
}
