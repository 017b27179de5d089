package kube

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/client-go/kubernetes/scheme"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/transport/spdy"
	"k8s.io/kubectl/pkg/polymorphichelpers"
	"k8s.io/kubectl/pkg/util/podutils"

	"kscope/cluster"
	"kscope/watch"
)

// podWaitTimeout bounds how long PodFor waits for a pod of a workload or service to appear, as kubectl's
// --pod-running-timeout does (kubectl's default is a minute; a terminal UI waits less).
const podWaitTimeout = 20 * time.Second

// forwardSetupTimeout bounds how long PortForward waits for the forward to listen (the pod read, the
// connection to the pod through the API server).
const forwardSetupTimeout = 30 * time.Second

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// PodFor implements cluster.Objects as kubectl's AttachablePodForObject does: a pod is itself; any object with a
// pod selector kubectl knows (service, deployment, replica set, stateful set, daemon set, job…) gives the
// most active of the pods it selects. Safe for concurrent use.
func (c *Cluster) PodFor(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*corev1.Pod, error) {
	core, err := corev1client.NewForConfig(c.cfg)
	if err != nil {
		return nil, err
	}
	if gvr == podsGVR {
		pod, err := core.Pods(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, DescribeServerError(c.cfg.Host, err)
		}
		return pod, nil
	}
	selector, err := c.podSelector(ctx, gvr, namespace, name)
	if err != nil {
		return nil, err
	}
	timeout := podWaitTimeout
	if deadline, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(deadline))
	}
	sortBy := func(pods []*corev1.Pod) sort.Interface { return sort.Reverse(podutils.ActivePods(pods)) }
	pod, _, err := polymorphichelpers.GetFirstPod(core, namespace, selector.String(), timeout, sortBy)
	if err != nil {
		return nil, fmt.Errorf("pods of %s %s: %w", gvr.Resource, name, DescribeServerError(c.cfg.Host, err))
	}
	return pod, nil
}

// PodsFor implements cluster.Objects: the pod itself (none when it does not exist), or the pods an object's
// selector matches now, the most active first as PodFor ranks them; it does not wait. Safe for concurrent use.
func (c *Cluster) PodsFor(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) ([]corev1.Pod, error) {
	core, err := corev1client.NewForConfig(c.cfg)
	if err != nil {
		return nil, err
	}
	if gvr == podsGVR {
		pod, err := core.Pods(namespace).Get(ctx, name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			return nil, nil
		case err != nil:
			return nil, DescribeServerError(c.cfg.Host, err)
		}
		return []corev1.Pod{*pod}, nil
	}
	selector, err := c.podSelector(ctx, gvr, namespace, name)
	if err != nil {
		return nil, err
	}
	list, err := core.Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: selector.String()})
	if err != nil {
		return nil, fmt.Errorf("pods of %s %s: %w", gvr.Resource, name, DescribeServerError(c.cfg.Host, err))
	}
	ranked := make([]*corev1.Pod, len(list.Items))
	for i := range list.Items {
		ranked[i] = &list.Items[i]
	}
	sort.Stable(sort.Reverse(podutils.ActivePods(ranked)))
	pods := make([]corev1.Pod, len(ranked))
	for i, p := range ranked {
		pods[i] = *p
	}
	return pods, nil
}

// podSelector reads the pod selector of an object of gvr (not a pod) as kubectl finds it.
func (c *Cluster) podSelector(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (labels.Selector, error) {
	u, err := c.Get(ctx, gvr, namespace, name)
	if err != nil {
		return nil, err
	}
	obj, err := scheme.Scheme.New(u.GroupVersionKind())
	if err != nil {
		return nil, fmt.Errorf("%s %s has no pods kscope can find: %w", gvr.Resource, name, err)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, obj); err != nil {
		return nil, fmt.Errorf("read %s %s: %w", gvr.Resource, name, err)
	}
	_, selector, err := polymorphichelpers.SelectorsForObject(obj)
	if err != nil {
		return nil, fmt.Errorf("pods of %s %s: %w", gvr.Resource, name, err)
	}
	if selector.Empty() {
		return nil, fmt.Errorf("%s %s selects no pods (it has no selector)", gvr.Resource, name)
	}
	return selector, nil
}

// PortForward implements cluster.Streams as `kubectl port-forward` does: SPDY tunnelled over a WebSocket,
// falling back to plain SPDY when the server cannot upgrade to WebSocket. A request with a UID is refused
// when the pod of that name has another one (it was re-created), before any stream is opened. It also
// watches the pod: once it is being deleted, is deleted, has another UID or is no longer running the forward
// ends with that reason (the stream to a pod that is gone may stay open). Safe for concurrent use.
func (c *Cluster) PortForward(ctx context.Context, req cluster.PortForwardRequest) (int, <-chan error, error) {
	what := fmt.Sprintf("%s/%s:%d", req.Namespace, req.Pod, req.PodPort)
	core, err := corev1client.NewForConfig(c.cfg)
	if err != nil {
		return 0, nil, fmt.Errorf("port-forward %s: %w", what, err)
	}
	getCtx, cancelGet := context.WithTimeout(ctx, forwardSetupTimeout)
	pod, err := core.Pods(req.Namespace).Get(getCtx, req.Pod, metav1.GetOptions{})
	cancelGet()
	if err != nil {
		return 0, nil, fmt.Errorf("port-forward %s: %w", what, DescribeServerError(c.cfg.Host, err))
	}
	if req.UID != "" && pod.UID != req.UID {
		return 0, nil, fmt.Errorf("port-forward %s: pod %s/%s was re-created (uid changed)", what, req.Namespace, req.Pod)
	}
	if pod.Status.Phase != corev1.PodRunning {
		return 0, nil, fmt.Errorf("port-forward %s: the pod is %s, not running", what, pod.Status.Phase)
	}
	u := core.RESTClient().Post().Resource("pods").Namespace(req.Namespace).Name(req.Pod).SubResource("portforward").URL()
	dialer, err := newForwardDialer(c.cfg, u)
	if err != nil {
		return 0, nil, fmt.Errorf("port-forward %s: %w", what, err)
	}
	fwdCtx, cancel := context.WithCancel(ctx)
	ready := make(chan struct{})
	errOut := &lockedBuffer{}
	address := req.Address
	if address == "" {
		address = "127.0.0.1"
	}
	fw, err := portforward.NewOnAddressesWithContext(fwdCtx, dialer, []string{address},
		[]string{fmt.Sprintf("%d:%d", req.LocalPort, req.PodPort)}, ready, discard{}, errOut)
	if err != nil {
		cancel()
		return 0, nil, fmt.Errorf("port-forward %s: %w", what, err)
	}
	forwarded := make(chan error, 1)
	c.start.Go(func() { forwarded <- fw.ForwardPorts() })
	setup := time.NewTimer(forwardSetupTimeout)
	defer setup.Stop()
	select {
	case <-ready:
	case <-setup.C:
		cancel()
		return 0, nil, fmt.Errorf("port-forward %s: no connection to the pod after %v", what, forwardSetupTimeout)
	case err := <-forwarded:
		cancel()
		if line := errOut.firstLine(); line != "" {
			err = errors.New(strings.ToLower(line[:1]) + line[1:])
		}
		if err == nil {
			err = ctx.Err()
		}
		return 0, nil, fmt.Errorf("port-forward %s: %w", what, err)
	}
	ports, err := fw.GetPorts()
	if err != nil || len(ports) == 0 {
		cancel()
		<-forwarded
		return 0, nil, fmt.Errorf("port-forward %s: no local port: %v", what, err)
	}
	ended := make(chan error, 1)
	podGone := make(chan error, 1)
	c.start.Go(func() { podGone <- c.waitPodStops(fwdCtx, pod) })
	c.start.Go(func() {
		defer close(ended)
		defer cancel()
		var err error
		select {
		case err = <-forwarded:
			if err != nil {
				err = fmt.Errorf("port-forward %s: %w", what, err)
			}
		case err = <-podGone:
			cancel()
			<-forwarded
		}
		if ctx.Err() != nil {
			err = nil // stopped by the caller
		}
		ended <- err
	})
	return int(ports[0].Local), ended, nil
}

// waitPodStops returns why pod no longer serves a forward (being deleted, deleted, replaced by another of the
// same name, not running), or nil when ctx ends.
func (c *Cluster) waitPodStops(ctx context.Context, pod *corev1.Pod) error {
	ns, name := pod.Namespace, pod.Name
	for ev := range watch.WatchObject(ctx, c.dyn, podsGVR, ns, name, c.start) {
		switch {
		case ev.Deleted, ev.Err != nil && apierrors.IsNotFound(ev.Err):
			return fmt.Errorf("pod %s/%s was deleted", ns, name)
		case ev.Object != nil && ev.Object.GetUID() != pod.UID:
			return fmt.Errorf("pod %s/%s was deleted (another pod has its name now)", ns, name)
		case ev.Object != nil && ev.Object.GetDeletionTimestamp() != nil:
			return fmt.Errorf("pod %s/%s is being deleted", ns, name)
		case ev.Object != nil:
			phase, _, _ := unstructured.NestedString(ev.Object.Object, "status", "phase")
			if phase != "" && phase != string(corev1.PodRunning) {
				return fmt.Errorf("pod %s/%s is %s", ns, name, phase)
			}
		}
	}
	return nil
}

// newForwardDialer is kubectl's port-forward dialer: SPDY over WebSocket, plain SPDY when the upgrade fails.
func newForwardDialer(cfg *rest.Config, u *url.URL) (httpstream.Dialer, error) {
	transport, upgrader, err := spdy.RoundTripperFor(cfg)
	if err != nil {
		return nil, err
	}
	plain := spdy.NewDialer(upgrader, &http.Client{Transport: transport}, "POST", u)
	tunnel, err := portforward.NewSPDYOverWebsocketDialer(u, cfg)
	if err != nil {
		return nil, err
	}
	return portforward.NewFallbackDialer(tunnel, plain, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	}), nil
}

// lockedBuffer is what the port forwarder writes its errors to (from its goroutines).
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) firstLine() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	line, _, _ := strings.Cut(strings.TrimSpace(b.buf.String()), "\n")
	return line
}

// discard takes the forwarder's "Forwarding from…" and "Handling connection for…" lines.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
