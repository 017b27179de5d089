package kube

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"

	"kscope/cluster"
)

// DebugPod implements cluster.Debug as `kubectl debug -it POD --image=I --target=C --profile=P` does: a
// strategic merge patch of the pod's ephemeralcontainers subresource adding one container, with pre in the
// patch's metadata.
func (c *Cluster) DebugPod(ctx context.Context, namespace, name string, opts cluster.DebugOptions, pre cluster.Precondition) (string, error) {
	cs, err := kubernetes.NewForConfig(c.cfg)
	if err != nil {
		return "", fmt.Errorf("clientset: %w", err)
	}
	pod, err := cs.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", DescribeServerError(c.cfg.Host, err)
	}
	if pre.UID != "" && pod.UID != pre.UID {
		return "", apierrors.NewConflict(podsGVR.GroupResource(), name, errors.New("the pod was deleted and re-created since it was shown"))
	}
	ec, err := debugContainer(pod, opts)
	if err != nil {
		return "", err
	}
	patch, err := json.Marshal(map[string]any{"metadata": preconditionMeta(pre), "spec": ephemeralPatch(pod, ec)})
	if err != nil {
		return "", err
	}
	_, err = cs.CoreV1().Pods(namespace).Patch(ctx, name, types.StrategicMergePatchType, patch,
		metav1.PatchOptions{FieldManager: fieldManager}, "ephemeralcontainers")
	var status apierrors.APIStatus
	if apierrors.IsNotFound(err) && errors.As(err, &status) && (status.Status().Details == nil || status.Status().Details.Name == "") {
		// as kubectl says it: the subresource is missing, not the pod
		return "", fmt.Errorf("ephemeral containers are disabled for this cluster: %w", DescribeServerError(c.cfg.Host, err))
	}
	if err != nil {
		return "", DescribeServerError(c.cfg.Host, uidConflict(podsGVR, name, err))
	}
	return ec.Name, nil
}

// ephemeralPatch is the spec of the strategic merge patch adding ec to pod's ephemeral containers, after
// the existing ones (the order directive kubectl's two-way patch sends: without it the new one comes first).
func ephemeralPatch(pod *corev1.Pod, ec corev1.EphemeralContainer) map[string]any {
	order := make([]map[string]string, 0, len(pod.Spec.EphemeralContainers)+1)
	for _, c := range pod.Spec.EphemeralContainers {
		order = append(order, map[string]string{"name": c.Name})
	}
	order = append(order, map[string]string{"name": ec.Name})
	return map[string]any{"$setElementOrder/ephemeralContainers": order, "ephemeralContainers": []corev1.EphemeralContainer{ec}}
}

// debugContainer is the ephemeral container kubectl debug adds to pod: debugger-xxxxx (a name no container
// of the pod has), interactive with a terminal, opts' image and target, opts' profile applied.
func debugContainer(pod *corev1.Pod, opts cluster.DebugOptions) (corev1.EphemeralContainer, error) {
	taken := map[string]bool{}
	for _, c := range pod.Spec.Containers {
		taken[c.Name] = true
	}
	for _, c := range pod.Spec.InitContainers {
		taken[c.Name] = true
	}
	for _, c := range pod.Spec.EphemeralContainers {
		taken[c.Name] = true
	}
	if opts.Target != "" && !taken[opts.Target] {
		return corev1.EphemeralContainer{}, fmt.Errorf("pod %s has no container %q to target", pod.Name, opts.Target)
	}
	name := ""
	for name == "" || taken[name] {
		name = "debugger-" + randomSuffix()
	}
	ec := corev1.EphemeralContainer{
		EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: name, Image: opts.Image,
			Stdin: true, TTY: true, TerminationMessagePolicy: corev1.TerminationMessageReadFile},
		TargetContainerName: opts.Target,
	}
	spec := pod.Spec.DeepCopy()
	if err := applyProfile(opts.Profile, ephemeralStyle, spec, (*corev1.Container)(&ec.EphemeralContainerCommon)); err != nil {
		return corev1.EphemeralContainer{}, err
	}
	return ec, nil
}

// DebugNode implements cluster.Debug as `kubectl debug node/N --image=I --profile=P` does.
func (c *Cluster) DebugNode(ctx context.Context, node, namespace string, opts cluster.DebugOptions) (string, error) {
	cs, err := kubernetes.NewForConfig(c.cfg)
	if err != nil {
		return "", fmt.Errorf("clientset: %w", err)
	}
	pod, err := nodeDebugPod(node, namespace, opts)
	if err != nil {
		return "", err
	}
	out, err := cs.CoreV1().Pods(namespace).Create(ctx, pod, metav1.CreateOptions{FieldManager: fieldManager})
	if err != nil {
		return "", DescribeServerError(c.cfg.Host, err)
	}
	return out.Name, nil
}

// nodeDebugPod is kubectl debug node/N's pod: node-debugger-NODE-xxxxx on node, its one container debugger
// interactive with a terminal, every taint tolerated, never restarted, opts' profile applied.
func nodeDebugPod(node, namespace string, opts cluster.DebugOptions) (*corev1.Pod, error) {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "node-debugger-" + node + "-" + randomSuffix(), Namespace: namespace,
			Labels: map[string]string{"app.kubernetes.io/managed-by": "kscope-debug"}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "debugger", Image: opts.Image, Stdin: true, TTY: true,
				TerminationMessagePolicy: corev1.TerminationMessageReadFile}},
			NodeName:      node,
			RestartPolicy: corev1.RestartPolicyNever,
			Tolerations:   []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
		},
	}
	if err := applyProfile(opts.Profile, nodeStyle, &pod.Spec, &pod.Spec.Containers[0]); err != nil {
		return nil, err
	}
	return pod, nil
}

// WaitRunning implements cluster.Debug with a watch of the pod, as kubectl debug waits before it attaches.
func (c *Cluster) WaitRunning(ctx context.Context, namespace, name, container string) error {
	cs, err := kubernetes.NewForConfig(c.cfg)
	if err != nil {
		return fmt.Errorf("clientset: %w", err)
	}
	pods := cs.CoreV1().Pods(namespace)
	selector := fields.OneTermEqualSelector("metadata.name", name).String()
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			o.FieldSelector = selector
			return pods.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.FieldSelector = selector
			return pods.Watch(ctx, o)
		},
	}
	var waiting string
	_, err = watchtools.UntilWithSync(ctx, lw, &corev1.Pod{}, nil, func(ev watch.Event) (bool, error) {
		if ev.Type == watch.Deleted {
			return false, fmt.Errorf("pod %s/%s was deleted", namespace, name)
		}
		pod, ok := ev.Object.(*corev1.Pod)
		if !ok {
			return false, nil
		}
		return containerRunning(pod, container, &waiting)
	})
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil && waiting != "":
		return fmt.Errorf("container %s of pod %s/%s is not running yet (%s)", container, namespace, name, waiting)
	case ctx.Err() != nil:
		return fmt.Errorf("container %s of pod %s/%s is not running yet: %w", container, namespace, name, ctx.Err())
	}
	return DescribeServerError(c.cfg.Host, err)
}

// containerRunning tells whether container of pod runs; an error when it has ended. waiting receives its
// waiting reason and message, when it has one.
func containerRunning(pod *corev1.Pod, container string, waiting *string) (bool, error) {
	for _, list := range [][]corev1.ContainerStatus{pod.Status.ContainerStatuses, pod.Status.InitContainerStatuses, pod.Status.EphemeralContainerStatuses} {
		for _, s := range list {
			if s.Name != container {
				continue
			}
			switch st := s.State; {
			case st.Running != nil:
				return true, nil
			case st.Terminated != nil:
				return false, fmt.Errorf("container %s ended (%s, exit code %d)", container, st.Terminated.Reason, st.Terminated.ExitCode)
			case st.Waiting != nil:
				*waiting = st.Waiting.Reason
				if st.Waiting.Message != "" {
					*waiting += ": " + st.Waiting.Message
				}
			}
		}
	}
	return false, nil
}
